
/// One term of a query's ORDER BY: an SQL expression (with its collation) and a direction.
struct OrderTerm {
    /// The value ordered by, such as `o."name"` or `kura_mixed_key(…)`.
    let value: String
    /// The collation it is ordered and compared by, if not SQLite's own.
    let collation: String?
    let ascending: Bool

    init(value: String, collation: String? = nil, ascending: Bool) {
        self.value = value
        self.collation = collation
        self.ascending = ascending
    }

    /// The value with its collation, such as `kura_mixed_key(…) COLLATE kura_mixed`.
    var expression: String {
        guard let collation else { return value }
        return value + " COLLATE " + collation
    }

    /// The same term on another expression of the same value (a column of an earlier step).
    func reading(_ other: String) -> OrderTerm {
        OrderTerm(value: other, collation: collation, ascending: ascending)
    }

    /// The term as ORDER BY takes it.
    var sql: String { ascending ? expression : expression + " DESC" }

    /// The condition that a row comes after `value` on this term alone, as ORDER BY orders it
    /// (SQLite puts NULL first ascending, last descending); `nil` when no row can.
    func after(_ value: StoredCell) -> (sql: String, arguments: [StoredCell])? {
        switch (value.isNull, ascending) {
        case (true, true): ("\(expression) IS NOT NULL", [])
        case (true, false): nil
        case (false, true): ("\(expression) > ?", [value])
        case (false, false): ("(\(expression) < ? OR \(expression) IS NULL)", [value])
        }
    }

    /// The condition that a row ties with `value` on this term.
    func tie(_ value: StoredCell) -> (sql: String, arguments: [StoredCell]) {
        value.isNull ? ("\(expression) IS NULL", []) : ("\(expression) = ?", [value])
    }
}
