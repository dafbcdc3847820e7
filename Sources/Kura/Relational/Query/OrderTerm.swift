/// One term of a query's ORDER BY: an SQL expression (with its collation) and a direction.
struct OrderTerm {
    /// The value ordered by, such as `o."name"` or `kura_mixed_key(…)`.
    let value: String
    /// The collation it is ordered and compared by, if not the engine's own.
    let collation: String?
    let ascending: Bool
    /// How the engine spells a collation and a direction.
    let dialect: any QueryDialect

    init(value: String, collation: String? = nil, ascending: Bool, dialect: any QueryDialect) {
        self.value = value
        self.collation = collation
        self.ascending = ascending
        self.dialect = dialect
    }

    /// The value with its collation, such as `kura_mixed_key(…) COLLATE kura_mixed`.
    var expression: String {
        guard let collation else { return value }
        return dialect.collated(value, by: collation)
    }

    /// The same term on another expression of the same value (a column of an earlier step).
    func reading(_ other: String) -> OrderTerm {
        OrderTerm(value: other, collation: collation, ascending: ascending, dialect: dialect)
    }

    /// The term as ORDER BY takes it, nulls first ascending and last descending.
    var sql: String { dialect.orderBy(expression, ascending: ascending) }

    /// `?` compared by the term's collation.
    private var argument: String {
        guard let collation else { return "?" }
        return dialect.collatedArgument(SQLFragment("?"), by: collation).sql
    }

    /// The condition that a row comes after `value` on this term alone, as ORDER BY orders it
    /// (nulls first ascending, last descending); `nil` when no row can.
    func after(_ value: StoredCell) -> (sql: String, arguments: [StoredCell])? {
        switch (value.isNull, ascending) {
        case (true, true): ("\(expression) IS NOT NULL", [])
        case (true, false): nil
        case (false, true): ("\(expression) > \(argument)", [value])
        case (false, false): ("(\(expression) < \(argument) OR \(expression) IS NULL)", [value])
        }
    }

    /// The condition that a row ties with `value` on this term.
    func tie(_ value: StoredCell) -> (sql: String, arguments: [StoredCell]) {
        value.isNull ? ("\(expression) IS NULL", []) : ("\(expression) = \(argument)", [value])
    }
}
