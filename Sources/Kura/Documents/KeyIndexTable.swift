/// Finds a key among those seen so far, to catch duplicates: a hash table of the keys' indices
/// (4 bytes a slot) rather than of the keys, which the caller holds anyway. A million keys are
/// checked in 8 MiB, where a `Set<String>` took 32 MiB, and as much again while it grew.
///
/// Keys are equal as `String`s are (canonical equivalence), as a dictionary's are. A few keys are
/// compared one by one, with nothing hashed.
struct KeyIndexTable {
    /// Up to this many keys are kept in order and compared one by one.
    private static let linearLimit = 8

    /// Recorded indices plus one (0 is an empty slot): in order while there are few, hashed after.
    private var slots: [UInt32] = []
    /// How many indices are recorded.
    private(set) var count = 0
    private var isHashed = false

    /// The recorded index of a key equal to `key`, if there is one. `keyAt(i)` is the key of
    /// recorded index `i`.
    func existing(_ key: String, keyAt: (Int) -> String) -> Int? {
        if !isHashed {
            for slot in slots where keyAt(Int(slot) - 1) == key { return Int(slot) - 1 }
            return nil
        }
        let mask = slots.count - 1
        var probe = key.hashValue & mask
        while slots[probe] != 0 {
            let other = Int(slots[probe]) - 1
            if keyAt(other) == key { return other }
            probe = (probe + 1) & mask
        }
        return nil
    }

    /// Records `index` as the index of `key`, which no recorded key equals. `keyAt` need not know
    /// `index` yet (its entry may come later); it must know the indices recorded before.
    mutating func record(_ key: String, as index: Int, keyAt: (Int) -> String) {
        if !isHashed {
            if slots.count < Self.linearLimit {
                slots.append(Self.slot(index))
                count += 1
                return
            }
            rehash(capacity: 4 * Self.linearLimit, keyAt: keyAt)
        } else if 4 * (count + 1) > 3 * slots.count {
            // At most three quarters full, so probes stay short.
            rehash(capacity: 2 * slots.count, keyAt: keyAt)
        }
        let mask = slots.count - 1
        var probe = key.hashValue & mask
        while slots[probe] != 0 { probe = (probe + 1) & mask }
        slots[probe] = Self.slot(index)
        count += 1
    }

    /// The slot of `index`. A container of 2^32 keys cannot be held (its nodes alone would take
    /// hundreds of GiB), so every index fits.
    private static func slot(_ index: Int) -> UInt32 {
        guard index < Int(UInt32.max) else { fatalError("more than \(UInt32.max - 1) keys in one container") }  // safe: unreachable, see above
        return UInt32(index + 1)
    }

    /// Moves the recorded indices into a hashed table of `capacity` slots (a power of two).
    private mutating func rehash(capacity: Int, keyAt: (Int) -> String) {
        let recorded = isHashed ? slots.filter { $0 != 0 } : slots
        slots = [UInt32](repeating: 0, count: capacity)
        isHashed = true
        let mask = capacity - 1
        for slot in recorded {
            var probe = keyAt(Int(slot) - 1).hashValue & mask
            while slots[probe] != 0 { probe = (probe + 1) & mask }
            slots[probe] = slot
        }
    }
}
