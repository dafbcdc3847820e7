import GRDB

/// SQL text with its positional arguments, kept together so that arguments stay in the order of
/// their placeholders however fragments are combined.
struct SQLFragment {
    var sql: String
    var arguments: [DatabaseValue]
    /// An estimate of how much of SQLite's parser stack the fragment needs: SQLite 3.40 parses with a
    /// fixed stack of 100 entries, so deeply nested SQL fails with "parser stack overflow".
    var parserDepth: Int

    init(_ sql: String, _ arguments: [DatabaseValue] = [], parserDepth: Int = 0) {
        self.sql = sql
        self.arguments = arguments
        self.parserDepth = parserDepth
    }

    static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs.sql + rhs.sql, lhs.arguments + rhs.arguments, parserDepth: max(lhs.parserDepth, rhs.parserDepth))
    }

    static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
        SQLFragment(lhs.sql + rhs, lhs.arguments, parserDepth: lhs.parserDepth)
    }

    static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs + rhs.sql, rhs.arguments, parserDepth: rhs.parserDepth)
    }

    /// Above this estimated depth, `joined` puts the deepest parts first.
    static let reorderingDepth = 40

    /// The parts joined by an `AND` or `OR`, in parentheses.
    ///
    /// Parts stay in the written order (cheap tests first, as users write them) unless that would
    /// nest deeply: SQLite's parser holds `expr AND (` on its stack for every part that is not first,
    /// so then the deepest parts go first (AND and OR have no side effects: the result is the same).
    /// Long lists are grouped in parenthesized runs of at most `groupSize`, so that the expression
    /// tree stays shallow (SQLite's depth limit is 1000).
    static func joined(_ parts: [SQLFragment], by connective: String, groupSize: Int = 64) -> SQLFragment {
        let written = group(parts, by: connective, groupSize: groupSize)
        guard written.parserDepth > reorderingDepth else { return written }
        let deepFirst = parts.enumerated().sorted { ($1.element.parserDepth, $0.offset) < ($0.element.parserDepth, $1.offset) }
        return group(deepFirst.map(\.element), by: connective, groupSize: groupSize)
    }

    private static func group(_ parts: [SQLFragment], by connective: String, groupSize: Int) -> SQLFragment {
        var level = parts
        repeat {
            var next: [SQLFragment] = []
            var start = 0
            while start < level.count {
                let run = level[start..<min(start + groupSize, level.count)]
                var combined = SQLFragment("(")
                var depth = 0
                for (offset, part) in run.enumerated() {
                    if offset > 0 { combined = combined + " \(connective) " }
                    combined = combined + part
                    depth = max(depth, part.parserDepth + (offset > 0 ? 2 : 0))
                }
                combined = combined + ")"
                combined.parserDepth = depth + 1
                next.append(combined)
                start += groupSize
            }
            level = next
        } while level.count > 1
        return level.first ?? SQLFragment(connective == "AND" ? "1" : "0")
    }
}

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
    /// SQLite joins at most 64 tables in one SELECT.
    static let maxTables = 64

    let first: String
    private(set) var joins: [String] = []
    private var objectAliases: [String: String] = [:]
    private let names: AliasNames

    /// A scope whose first table is `table AS alias`.
    init(table: String, alias: String, names: AliasNames) {
        self.first = "\(table) AS \(alias)"
        self.names = names
    }

    /// Records that `alias` is the object table row whose id is `idExpression`.
    func register(alias: String, forObjectId idExpression: String) {
        objectAliases[idExpression] = alias
    }

    /// The alias of the `type` row whose id is `idExpression`, LEFT JOINed on first use so that a
    /// null or dangling id gives a row of nulls rather than no row.
    func objectAlias(type: String, idExpression: String) throws(QueryError) -> String {
        if let alias = objectAliases[idExpression] { return alias }
        let alias = names.make()
        try add("LEFT JOIN \(TableLayout.objectTable(type)) AS \(alias) ON \(alias).\(TableLayout.idColumn) = \(idExpression)")
        objectAliases[idExpression] = alias
        return alias
    }

    /// Adds an inner join (a collection's rows).
    func join(_ table: String, alias: String, on condition: String) throws(QueryError) {
        try add("JOIN \(table) AS \(alias) ON \(condition)")
    }

    /// `FROM first joins…`
    var fromClause: String {
        (["FROM \(first)"] + joins).joined(separator: " ")
    }

    private func add(_ join: String) throws(QueryError) {
        guard joins.count + 1 < Self.maxTables else {
            throw QueryError(
                .tooComplex, "the query follows too many links at once (SQLite joins at most \(Self.maxTables) tables)")
        }
        joins.append(join)
    }
}
