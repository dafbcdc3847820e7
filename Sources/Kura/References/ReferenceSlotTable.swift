/// A `ReferenceScope`'s entries, spread over a fixed number of dictionaries by the key's hash.
///
/// One dictionary of hundreds of thousands of entries doubles its storage whenever it fills three
/// quarters of it, holding the old storage beside the new while it moves the entries over, so at
/// its peak it takes four slots per entry. Shards fill at different counts and grow one at a
/// time: the spare room is on average the same, but the peak of a growth is a shard's, not the
/// whole table's. A value type, so a copy (a scope's snapshot) shares the shards until they change.
struct ReferenceSlotTable {
    typealias Key = ReferenceScope.SlotKey
    typealias Slot = ReferenceScope.Slot

    /// A power of two, so a shard is picked by masking the hash.
    static let shardCount = 256

    /// Every shard starts as the shared empty dictionary, so an unused table allocates one array.
    private var shards = [[Key: Slot]](repeating: [:], count: shardCount)
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    subscript(key: Key) -> Slot? {
        shards[Self.shard(key)][key]
    }

    /// Sets or (with `nil`) removes the slot under `key`, and returns the one it replaced.
    @discardableResult
    mutating func set(_ slot: Slot?, forKey key: Key) -> Slot? {
        let shard = Self.shard(key)
        let previous: Slot?
        if let slot {
            previous = shards[shard].updateValue(slot, forKey: key)
            if previous == nil { count += 1 }
        } else {
            previous = shards[shard].removeValue(forKey: key)
            if previous != nil { count -= 1 }
        }
        return previous
    }

    /// Every entry, in no particular order.
    var all: some Sequence<(key: Key, value: Slot)> {
        shards.lazy.flatMap { $0 }
    }

    var keys: [Key] { all.map(\.key) }

    /// The dictionaries hash with seeds of their own, so the bits picking a shard do not crowd
    /// one shard's keys into a corner of its storage.
    private static func shard(_ key: Key) -> Int {
        key.hashValue & (shardCount - 1)
    }
}
