/// SplitMix64: a small, fast generator whose whole state is one word, so a generated test input
/// (a fuzz input, a random document) is reproducible from its run's seed and its iteration alone.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    /// The generator for one iteration of a run: independent of every other iteration.
    package init(seed: UInt64, iteration: Int) {
        var mixer = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: iteration) &* 0x9E37_79B9_7F4A_7C15))
        state = mixer.next()
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (bound > 0).
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True one time in `n`.
    package mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }
}
