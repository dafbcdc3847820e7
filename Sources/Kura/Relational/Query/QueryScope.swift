/// Names table aliases uniquely within one query. Aliases contain `#`, which type names cannot.
final class AliasNames {
    private var next = 0

    func make() -> String {
        defer { next += 1 }
        return TableLayout.quote("#t\(next)")
    }
}

/// The tables of one SELECT: its first table and the joins after it. An object table reached
/// through a to-one link is joined once per id expression, however many comparisons use it.
final class QueryScope {
    let first: String
    private(set) var joins: [String] = []
    private var objectAliases: [String: String] = [:]
    private let names: AliasNames
    private let limits: QueryLimits

    /// A scope whose first table is `table AS alias`.
    init(table: String, alias: String, names: AliasNames, limits: QueryLimits) {
        self.first = "\(table) AS \(alias)"
        self.names = names
        self.limits = limits
    }

    /// Records that `alias` is the object table row whose id is `idExpression`.
    func register(alias: String, forObjectId idExpression: String) {
        objectAliases[idExpression] = alias
    }

    /// The alias of the `type` row whose id is `idExpression`, LEFT JOINed on first use so that a
    /// null or dangling id gives a row of nulls rather than no row.
    func objectAlias(type: String, idExpression: String) throws(KuraError) -> String {
        if let alias = objectAliases[idExpression] { return alias }
        let alias = names.make()
        try add("LEFT JOIN \(TableLayout.objectTable(type)) AS \(alias) ON \(alias).\(TableLayout.idColumn) = \(idExpression)")
        objectAliases[idExpression] = alias
        return alias
    }

    /// Adds an inner join (a collection's rows).
    func join(_ table: String, alias: String, on condition: String) throws(KuraError) {
        try add("JOIN \(table) AS \(alias) ON \(condition)")
    }

    /// `FROM first joins…`
    var fromClause: String {
        (["FROM \(first)"] + joins).joined(separator: " ")
    }

    private func add(_ join: String) throws(KuraError) {
        guard joins.count + 1 < limits.tablesPerSelect else {
            throw KuraError.query(
                .tooComplex,
                "the query follows too many links at once (\(limits.engine) joins at most \(limits.tablesPerSelect) tables)")
        }
        joins.append(join)
    }
}
