/// A small deterministic random number generator (SplitMix64), so a run of the harness, and each
/// of its trials, can be replayed from its seed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose whole sequence follows from `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// The generator of one trial: its own sequence, independent of how many trials ran before it.
    init(seed: UInt64, trial: Int) {
        var mixer = SeededRandom(seed: seed ^ (UInt64(truncatingIfNeeded: trial) &* 0x9E37_79B9_7F4A_7C15))
        state = mixer.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
