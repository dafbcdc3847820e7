import GRDB

/// A stored value as the key of a dictionary or set, telling strings apart byte by byte (see `ExactValue`).
struct ExactDatabaseValue: Hashable {
    let value: DatabaseValue

    init(_ value: DatabaseValue) { self.value = value }

    static func == (lhs: ExactDatabaseValue, rhs: ExactDatabaseValue) -> Bool {
        if case .string(let left) = lhs.value.storage, case .string(let right) = rhs.value.storage {
            return ExactText.equal(left, right)
        }
        return lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        if case .string(let text) = value.storage {
            ExactText.hash(text, into: &hasher)
        } else {
            hasher.combine(value)
        }
    }
}
