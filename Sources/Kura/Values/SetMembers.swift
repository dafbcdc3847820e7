/// The elements of a set as `ValueOrder` tells them apart: `1`, `1.0` and decimal `1.00` are one
/// element, `true` is another. Values are filed under `ValueOrder.keys` (a value other than a
/// number under itself), so finding an equal element compares only with the few filed under the
/// same keys.
struct SetMembers {
    /// The first element filed under each key; most keys hold one.
    private var first: [Value: Value] = [:]
    /// Further elements filed under a key already taken (distinct doubles rounding to one decimal,
    /// strings canonically equivalent but of other bytes).
    private var more: [Value: [Value]] = [:]
    /// How many elements were added.
    private(set) var count = 0

    /// Adds `value` unless an equal element is there; returns whether it was added.
    mutating func insert(_ value: Value) -> Bool {
        guard ValueOrder.isNumber(value) else { return insert(value, keys: CollectionOfOne(value)) }
        return insert(value, keys: ValueOrder.keys(value))
    }

    /// Whether an element equal to `value` is there.
    func contains(_ value: Value) -> Bool {
        guard ValueOrder.isNumber(value) else { return contains(value, keys: CollectionOfOne(value)) }
        return contains(value, keys: ValueOrder.keys(value))
    }

    private mutating func insert<Keys: Sequence<Value>>(_ value: Value, keys: Keys) -> Bool {
        if contains(value, keys: keys) { return false }
        for key in keys {
            if first[key] == nil { first[key] = value } else { more[key, default: []].append(value) }
        }
        count += 1
        return true
    }

    private func contains<Keys: Sequence<Value>>(_ value: Value, keys: Keys) -> Bool {
        for key in keys {
            guard let filed = first[key] else { continue }
            if ValueOrder.equal(filed, value) { return true }
            if let others = more[key], others.contains(where: { ValueOrder.equal($0, value) }) { return true }
        }
        return false
    }
}
