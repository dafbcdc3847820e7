/// A set of property indexes: one machine word for a type's first 64 properties, an array only
/// beyond them. Mapping marks which properties a document gave, and allocating for that on every
/// object cost more than the marking.
struct PropertyFlags {
    private var low: UInt64 = 0
    private var high: [Bool]
    /// How many indexes are in the set.
    private(set) var count = 0

    /// An empty set for indexes below `count`.
    init(count: Int) {
        high = count > 64 ? Array(repeating: false, count: count - 64) : []
    }

    /// Adds `index`; false if it was already in the set.
    mutating func insert(_ index: Int) -> Bool {
        if index < 64 {
            let bit: UInt64 = 1 << UInt64(index)
            guard low & bit == 0 else { return false }
            low |= bit
        } else {
            guard !high[index - 64] else { return false }
            high[index - 64] = true
        }
        count += 1
        return true
    }

    func contains(_ index: Int) -> Bool {
        index < 64 ? low & (1 << UInt64(index)) != 0 : high[index - 64]
    }
}
