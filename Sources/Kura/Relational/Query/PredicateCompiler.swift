/// Compiles a parsed predicate into an SQL condition on one type's object table, checking every
/// key path, operator and literal against the schema first.
///
/// - A to-one link is a LEFT JOIN of the target's table, so a null link anywhere in a chain reads as null.
/// - A path through a list, set, map or linkingObjects becomes an `EXISTS` subquery over the rows it
///   reaches (ANY), `NOT EXISTS (… AND NOT test)` (ALL) or `NOT EXISTS (… AND test)` (NONE).
/// - `@count`, `@sum`/`@avg`/`@min`/`@max`, `map['key']` and `SUBQUERY(…).@count` are scalar subqueries.
///
/// `NOT` is pushed down to the comparisons (De Morgan), whose tests are two-valued, so the SQL nests
/// no deeper than the predicate's alternation of `AND` and `OR`. Compiling takes time linear in
/// the predicate's length, and so does SQLite's compiling of the SQL (see `QueryConstants` and
/// `SQLFragment.joined`); what SQLite could not take is refused at its column first.
final class PredicateCompiler {
    /// Measured on SQLite 3.40: a comparison with subqueries takes about 20 parser stack entries.
    static let subqueryDepth = 24
    /// What a subquery around a test adds to the height of its expression tree, generously.
    static let subqueryHeight = 6
    /// The estimated parser stack a predicate may need (`SQLFragment.parserDepth`); SQLite 3.40's
    /// stack holds 100 entries, some of which the statement around the predicate takes.
    static let maxParserDepth = 80
    /// The expression height a predicate may reach, below the engine's limit by what the statement
    /// around it adds.
    var maxHeight: Int { limits.expressionDepth - 50 }
    /// The tables a query may read in subqueries (through lists, sets, maps and linkingObjects,
    /// and for `@count`). SQLite opens them again for every object it tests, and opening a table
    /// walks the list of those open: the cost for each object grows with the square of their number.
    static let maxSubqueryTables = 64
    /// The values a predicate may bind: the engine's limit less what a query binds besides (a page
    /// cursor binds two values a sort key and one more).
    var maxValues: Int { limits.variables - 2 * limits.columns - 8 }

    let root: ObjectSchema
    let catalog: SchemaCatalog
    /// What the engine's SQL can hold.
    let limits: QueryLimits
    /// The scope of the top-level SELECT; sort keys join their links into it as well.
    let scope: QueryScope
    let rootAlias: String
    let names: AliasNames
    /// The constants of every comparison of the query, written so that SQLite compiles them in
    /// linear time; inside a SUBQUERY, constants that write literals.
    var constants: QueryConstants
    /// The bytes of SQL written for comparisons so far, against SQLite's limit on a statement.
    private var sqlBytes = 0
    /// The tables read in subqueries so far, against `maxSubqueryTables`.
    var subqueryTables = 0

    /// An object reached along a path: its type, the SQL expression of its id, and the scope it is read in.
    struct Position {
        var type: String
        var id: String
        var scope: QueryScope
    }

    /// Where the key paths of a predicate start: the queried object, and the objects SUBQUERY
    /// variables stand for.
    struct Context {
        var root: Position
        var variables: [String: Position] = [:]
    }

    init(root: ObjectSchema, catalog: SchemaCatalog, limits: QueryLimits) {
        self.root = root
        self.catalog = catalog
        self.limits = limits
        constants = QueryConstants(dialect: limits.dialect)
        names = AliasNames()
        rootAlias = names.make()
        scope = QueryScope(table: TableLayout.objectTable(root.name), alias: rootAlias, names: names, limits: limits)
        scope.register(alias: rootAlias, forObjectId: "\(rootAlias).\(TableLayout.idColumn)")
    }

    /// The context of the top-level query: key paths start at its row.
    var topContext: Context {
        Context(root: Position(type: root.name, id: "\(rootAlias).\(TableLayout.idColumn)", scope: scope))
    }

    /// The condition for `predicate`, on the row of `rootAlias` in `scope`.
    ///
    /// With the parser's nesting bound and `SQLFragment.joined` putting deep parts first when it
    /// matters, the SQL stays within SQLite 3.40's fixed parser stack and SQLite's expression height
    /// (the tests run 32 levels around long lists); a predicate that would not is refused.
    func compile(_ predicate: ParsedPredicate) throws(KuraError) -> SQLFragment {
        let condition = try condition(predicate, negated: false, in: topContext)
        if condition.parserDepth > Self.maxParserDepth || condition.height > maxHeight {
            throw KuraError.query(
                .tooComplex, "the predicate nests too deeply for SQLite around this comparison: use fewer levels of parentheses",
                in: .where, column: condition.column)
        }
        return condition
    }

    /// The condition for `predicate` in `context`, negated (pushed down to its comparisons) when asked.
    func condition(_ predicate: ParsedPredicate, negated: Bool, in context: Context) throws(KuraError) -> SQLFragment {
        switch predicate {
        case .constant(let value):
            return SQLFragment(value != negated ? limits.dialect.alwaysTrue : limits.dialect.alwaysFalse)
        case .not(let inner):
            return try condition(inner, negated: !negated, in: context)
        case .and(let terms), .or(let terms):
            var isAnd = false
            if case .and = predicate { isAnd = true }
            var parts: [SQLFragment] = []
            for term in terms { parts.append(try condition(term, negated: negated, in: context)) }
            return SQLFragment.joined(parts, by: isAnd != negated ? "AND" : "OR")
        case .comparison(let comparison):
            var test = try self.comparison(comparison, in: context)
            if negated {
                test = "(NOT " + test + ")"
                test.height += 1
            }
            return test
        }
    }

    // MARK: Comparisons

    private func comparison(_ comparison: PredicateComparison, in context: Context) throws(KuraError) -> SQLFragment {
        var check = try self.check(comparison, in: context)
        check.column = comparison.left.column
        sqlBytes += check.sql.utf8.count + 8
        if constants.bound > maxValues {
            throw KuraError.query(
                .tooComplex, "the predicate compares with more than \(maxValues) values, more than \(limits.engine) binds in one query",
                in: .where, column: comparison.column)
        }
        if sqlBytes > limits.sqlLength - 65536 {
            throw KuraError.query(
                .tooComplex, "the predicate is too long: its SQL would pass \(limits.engine)'s limit of \(limits.sqlLength) bytes",
                in: .where, column: comparison.column)
        }
        return check
    }

    /// The SQL test of one comparison, with estimates of its depth.
    private func check(_ comparison: PredicateComparison, in context: Context) throws(KuraError) -> SQLFragment {
        var subquery: Subquery?
        let left = try operand(comparison.left, in: context, subquery: &subquery)
        var right: Operand?
        switch comparison.right {
        case .keyPath, .subquery, .arithmetic:
            var rightSubquery: Subquery?
            right = try operand(comparison.right, in: context, subquery: &rightSubquery)
            if let rightSubquery {
                guard subquery == nil else {
                    throw KuraError.query(
                        .invalidKeyPath,
                        "\(left.subject) and \(right?.subject ?? "") both go through lists, sets, maps or linkingObjects: "
                            + "compare one of them with a single value, or use SUBQUERY",
                        in: .where, column: comparison.right.column)
                }
                subquery = rightSubquery
            }
        case .literal, .list:
            break
        }
        if let quantifier = comparison.quantifier, subquery == nil {
            let message = quantifier.word == "IN"
                ? "\(left.subject) is not a list, set or map: IN needs one on its right, or values in braces"
                : "\(left.subject): \(quantifier.word) needs a key path through a list, set, map or linkingObjects"
            throw KuraError.query(.invalidKeyPath, message, in: .where, column: quantifier.column)
        }
        var check: SQLFragment
        switch comparison.right {
        case .literal(let literal): check = try test(left, comparison, literals: [literal])
        case .list(let items, _): check = try listTest(left, comparison, items)
        case .keyPath, .subquery, .arithmetic:
            guard let right else { throw KuraError.query(.syntax, "a comparison lost its right side", in: .where, column: comparison.column) }
            check = try ExpressionTest(left, right, op: comparison.op, options: comparison.options, column: comparison.column)
                .sql(limits.dialect)
        }
        guard let subquery else {
            if left.nests || right?.nests == true {
                check.parserDepth = max(check.parserDepth, Self.subqueryDepth)
                check.height += Self.subqueryHeight
            } else {
                check.parserDepth = max(check.parserDepth, 4)
                check.height += 2
            }
            return check
        }
        let rows = "SELECT 1 \(subquery.scope.fromClause) WHERE \(subquery.correlation) AND "
        var quantified: SQLFragment
        switch comparison.quantifier?.kind ?? .any {
        case .any: quantified = "EXISTS (" + rows + check + ")"
        case .all: quantified = "(NOT EXISTS (" + rows + "NOT " + check + "))"
        case .none: quantified = "(NOT EXISTS (" + rows + check + "))"
        }
        quantified.parserDepth = max(quantified.parserDepth, Self.subqueryDepth)
        quantified.height += Self.subqueryHeight
        return quantified
    }

    /// The test of one side against values written in the predicate.
    private func test(_ operand: Operand, _ comparison: PredicateComparison, literals: [PredicateLiteral]) throws(KuraError) -> SQLFragment {
        if let rows = operand.existence, let nonEmpty = Self.testsNonEmpty(comparison.op, literals) {
            let exists = rows.isEmpty ? limits.dialect.alwaysFalse : rows.map { "EXISTS (\($0))" }.joined(separator: " OR ")
            return SQLFragment(nonEmpty ? "(\(exists))" : "(NOT (\(exists)))")
        }
        if let kind = operand.typeOf {
            return try TypeTest(subject: operand.subject, op: comparison.op, literals: literals, column: comparison.column)
                .sql(kind, constants: constants)
        }
        return try ComparisonTest(
            subject: operand.subject, type: operand.type, op: comparison.op, options: comparison.options, literals: literals,
            column: comparison.column
        ).sql(value: operand.value, tag: operand.tag, constants: constants)
    }

    /// The test of one side against a list of values: the one test of `IN` and `BETWEEN`, or, after
    /// another operator, one test per value joined as `ANY`, `ALL` or `NONE` says (`== ANY` and
    /// `== NONE` as `IN` and its negation).
    private func listTest(_ operand: Operand, _ comparison: PredicateComparison, _ items: [PredicateLiteral]) throws(KuraError) -> SQLFragment {
        guard let kind = comparison.listQuantifier else { return try test(operand, comparison, literals: items) }
        if comparison.op == .equal, comparison.options.isEmpty, kind != .all {
            var asIn = comparison
            asIn.op = .in
            let test = try test(operand, asIn, literals: items)
            return kind == .any ? test : "(NOT " + test + ")"
        }
        var parts: [SQLFragment] = []
        for item in items { parts.append(try test(operand, comparison, literals: [item])) }
        guard !parts.isEmpty else { return SQLFragment(kind == .any ? limits.dialect.alwaysFalse : limits.dialect.alwaysTrue) }
        let joined = SQLFragment.joined(parts, by: kind == .all ? "AND" : "OR")
        return kind == .none ? "(NOT " + joined + ")" : "(" + joined + ")"
    }

    /// Whether a count compared by `op` with `literals` asks only if it is above zero (`> 0`,
    /// `>= 1`, `!= 0`: true) or zero (`== 0`, `< 1`, `<= 0`: false); nil for any other comparison.
    private static func testsNonEmpty(_ op: ComparisonOperator, _ literals: [PredicateLiteral]) -> Bool? {
        guard literals.count == 1, case .number(let text) = literals[0].value, let number = Int64(text) else { return nil }
        switch (op, number) {
        case (.greater, 0), (.greaterOrEqual, 1), (.notEqual, 0): return true
        case (.equal, 0), (.less, 1), (.lessOrEqual, 0): return false
        default: return nil
        }
    }

    /// The rows a comparison through a to-many step ranges over: one scope, correlated to the outer row.
    typealias Subquery = (scope: QueryScope, correlation: String)
}
