/// Finds a property's position by name with a cheap hash of its bytes: looking names up is most of
/// the cost of ordering a document's fields, and `String`'s seeded hash is several times slower.
/// Equal ASCII names have equal bytes; a name with other characters that the table misses is
/// compared the way `String` compares (canonical equivalence) before it counts as absent.
struct PropertyPositions: Sendable {
    private let names: [String]
    /// Open addressing with linear probing: a position in `names`, or -1 for an empty slot.
    private let slots: [Int32]
    /// The slot count (a power of two, at least twice the names) minus one.
    private let mask: Int

    init(_ names: [String]) {
        self.names = names
        var capacity = 8
        while capacity < names.count * 2 { capacity *= 2 }
        mask = capacity - 1
        var slots = [Int32](repeating: -1, count: capacity)
        for (position, name) in names.enumerated() {
            var slot = Self.hash(name) & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(position)
        }
        self.slots = slots
    }

    subscript(name: String) -> Int? {
        var slot = Self.hash(name) & mask
        while true {
            let position = Int(slots[slot])
            if position < 0 { break }
            if names[position] == name { return position }
            slot = (slot + 1) & mask
        }
        guard !name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return names.firstIndex(of: name)
    }

    /// The UTF-8 bytes taken eight at a time, each word folded in with a multiply: a byte at a
    /// time (FNV-1a) was a tenth of finding a position.
    private static func hash(_ name: String) -> Int {
        var name = name
        return name.withUTF8 { bytes in
            let multiplier: UInt64 = 0x9e37_79b9_7f4a_7c15
            var hash = UInt64(bytes.count) &* multiplier
            guard let base = bytes.baseAddress else { return Int(truncatingIfNeeded: hash) }
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while offset + 8 <= bytes.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
                offset += 8
            }
            var tail: UInt64 = 0
            while offset < bytes.count {
                tail = tail << 8 | UInt64(bytes[offset])
                offset += 1
            }
            hash = (hash ^ tail) &* multiplier
            return Int(truncatingIfNeeded: hash ^ (hash >> 29))
        }
    }
}
