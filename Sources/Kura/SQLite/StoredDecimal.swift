import GRDB

/// Decimals in their stored form (their text, as written), compared by value as `ValueOrder` does.
enum StoredDecimal {
    /// `value` with a decimal's text replaced by its normalized text, so that stored decimals equal
    /// in value are equal (`1.0` and `1.00` both read `1`); any other value unchanged.
    static func normalized(_ value: DatabaseValue) -> DatabaseValue {
        guard case .string(let text) = value.storage, let number = Decimal128(text) else { return value }
        return number.normalized.description.databaseValue
    }

    /// Whether two stored values are equal decimals, or equal otherwise.
    static func equal(_ lhs: DatabaseValue, _ rhs: DatabaseValue) -> Bool {
        normalized(lhs) == normalized(rhs)
    }
}
