/// The elements of a set as `ValueOrder` tells them apart: `1`, `1.0` and decimal `1.00` are one
/// element, `true` is another. Values are filed under `ValueOrder.keys`, so finding an equal element
/// compares only with the few filed under the same keys.
struct SetMembers {
    private var filed: [Value: [Value]] = [:]
    /// How many elements were added.
    private(set) var count = 0

    /// Adds `value` unless an equal element is there; returns whether it was added.
    mutating func insert(_ value: Value) -> Bool {
        let keys = ValueOrder.keys(value)
        if contains(value, keys: keys) { return false }
        for key in keys { filed[key, default: []].append(value) }
        count += 1
        return true
    }

    /// Whether an element equal to `value` is there.
    func contains(_ value: Value) -> Bool {
        contains(value, keys: ValueOrder.keys(value))
    }

    private func contains(_ value: Value, keys: [Value]) -> Bool {
        for key in keys {
            if let candidates = filed[key], candidates.contains(where: { ValueOrder.equal($0, value) }) { return true }
        }
        return false
    }
}
