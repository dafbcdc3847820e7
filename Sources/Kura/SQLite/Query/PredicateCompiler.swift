/// Compiles a parsed predicate into an SQL condition on one type's object table, checking every
/// key path, operator and literal against the schema first.
///
/// - A to-one link is a LEFT JOIN of the target's table, so a null link anywhere in a chain reads as null.
/// - A path through a list, set, map or linkingObjects becomes an `EXISTS` subquery over the rows it
///   reaches (ANY), `NOT EXISTS (… AND NOT test)` (ALL) or `NOT EXISTS (… AND test)` (NONE).
/// - `@count` is a scalar `count(*)` subquery.
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
    /// The expression height a predicate may reach, below SQLite's limit by what the statement
    /// around it adds.
    static let maxHeight = SQLiteLimits.expressionDepth - 50
    /// The tables a query may read in subqueries (through lists, sets, maps and linkingObjects,
    /// and for `@count`). SQLite opens them again for every object it tests, and opening a table
    /// walks the list of those open: the cost for each object grows with the square of their number.
    static let maxSubqueryTables = 64
    /// The values a predicate may bind: SQLite's limit less what a query binds besides (a page
    /// cursor binds two values a sort key and one more).
    static let maxValues = SQLiteLimits.variables - 2 * SQLiteLimits.columns - 8

    let root: ObjectSchema
    /// The scope of the top-level SELECT; sort keys join their links into it as well.
    let scope: QueryScope
    let rootAlias: String
    private let names: AliasNames
    private let resolver: KeyPathResolver
    /// The constants of every comparison of the query, written so that SQLite compiles them in linear time.
    private let constants = QueryConstants()
    /// The bytes of SQL written for comparisons so far, against SQLite's limit on a statement.
    private var sqlBytes = 0
    /// The tables read in subqueries so far, against `maxSubqueryTables`.
    private var subqueryTables = 0

    init(root: ObjectSchema, catalog: SchemaCatalog) {
        self.root = root
        names = AliasNames()
        rootAlias = names.make()
        scope = QueryScope(table: TableLayout.objectTable(root.name), alias: rootAlias, names: names)
        scope.register(alias: rootAlias, forObjectId: "\(rootAlias).\(TableLayout.idColumn)")
        resolver = KeyPathResolver(catalog: catalog, source: .where)
    }

    /// The condition for `predicate`, on the row of `rootAlias` in `scope`.
    ///
    /// With the parser's nesting bound and `SQLFragment.joined` putting deep parts first when it
    /// matters, the SQL stays within SQLite 3.40's fixed parser stack and SQLite's expression height
    /// (the tests run 32 levels around long lists); a predicate that would not is refused.
    func compile(_ predicate: ParsedPredicate) throws(KuraError) -> SQLFragment {
        let condition = try condition(predicate, negated: false)
        if condition.parserDepth > Self.maxParserDepth || condition.height > Self.maxHeight {
            throw KuraError.query(
                .tooComplex, "the predicate nests too deeply for SQLite around this comparison: use fewer levels of parentheses",
                in: .where, column: condition.column)
        }
        return condition
    }

    private func condition(_ predicate: ParsedPredicate, negated: Bool) throws(KuraError) -> SQLFragment {
        switch predicate {
        case .constant(let value):
            return SQLFragment(value != negated ? "1" : "0")
        case .not(let inner):
            return try condition(inner, negated: !negated)
        case .and(let terms), .or(let terms):
            var isAnd = false
            if case .and = predicate { isAnd = true }
            var parts: [SQLFragment] = []
            for term in terms { parts.append(try condition(term, negated: negated)) }
            return SQLFragment.joined(parts, by: isAnd != negated ? "AND" : "OR")
        case .comparison(let comparison):
            var test = try self.comparison(comparison)
            if negated {
                test = "(NOT " + test + ")"
                test.height += 1
            }
            return test
        }
    }

    // MARK: Comparisons

    /// An object reached along a path: its type, the SQL expression of its id, and the scope it is read in.
    private struct Position {
        var type: String
        var id: String
        var scope: QueryScope
    }

    private func comparison(_ comparison: PredicateComparison) throws(KuraError) -> SQLFragment {
        var check = try self.check(comparison)
        check.column = comparison.keyPath.column
        sqlBytes += check.sql.utf8.count + 8
        if constants.bound > Self.maxValues {
            throw KuraError.query(
                .tooComplex, "the predicate compares with more than \(Self.maxValues) values, more than SQLite binds in one query",
                in: .where, column: comparison.column)
        }
        if sqlBytes > SQLiteLimits.sqlLength - 65536 {
            throw KuraError.query(
                .tooComplex, "the predicate is too long: its SQL would pass SQLite's limit of \(SQLiteLimits.sqlLength) bytes",
                in: .where, column: comparison.column)
        }
        return check
    }

    /// The SQL test of one comparison, with estimates of its depth.
    private func check(_ comparison: PredicateComparison) throws(KuraError) -> SQLFragment {
        let path = try resolver.resolve(comparison.keyPath, from: root)
        if let quantifier = comparison.quantifier, !path.isToMany {
            let message = quantifier.word == "IN"
                ? "\(path.subject) is not a list, set or map: IN needs one on its right, or values in braces"
                : "\(path.subject): \(quantifier.word) needs a key path through a list, set, map or linkingObjects"
            throw KuraError.query(.invalidKeyPath, message, in: .where, column: quantifier.column)
        }
        let test = try ComparisonTest(
            subject: path.subject, type: path.valueType, op: comparison.op, caseInsensitive: comparison.caseInsensitive,
            operand: comparison.operand, column: comparison.column)

        var subquery: Subquery?
        let position: Position
        let value: String
        let tag: String?
        do {
            position = try follow(path.hops, into: &subquery)
            (value, tag) = try self.value(path.end, at: position, subquery: &subquery)
        } catch {
            // Too many tables: the comparison that needs one more says where.
            throw error.placed(in: .where, column: comparison.keyPath.column)
        }
        var check = test.sql(value: value, tag: tag, constants: constants)
        guard let subquery else {
            if case .count = path.end {
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

    /// The rows a comparison through a to-many step ranges over: one scope, correlated to the outer row.
    private typealias Subquery = (scope: QueryScope, correlation: String)

    /// Follows the hops from the root object: to-one links as joins in the current scope, to-many
    /// steps as tables of the comparison's subquery (opened by the first of them).
    private func follow(_ hops: [ResolvedKeyPath.Hop], into subquery: inout Subquery?) throws(KuraError) -> Position {
        var position = Position(type: root.name, id: "\(rootAlias).\(TableLayout.idColumn)", scope: scope)
        for hop in hops {
            switch hop {
            case .toOne(let owner, let property, let target):
                let alias = try position.scope.objectAlias(type: owner, idExpression: position.id)
                position = Position(type: target, id: "\(alias).\(TableLayout.column(property))", scope: position.scope)
            case .collection(let owner, let property, let target):
                let alias = names.make()
                let condition = "\(alias).\(TableLayout.ownerColumn) = \(position.id)"
                let rows = try enter(TableLayout.collectionTable(owner, property), alias, condition, &subquery)
                position = Position(type: target, id: "\(alias).\(TableLayout.valueColumn)", scope: rows)
            case .backlink(let source, let property, true):
                let alias = names.make()
                let condition = "\(alias).\(TableLayout.valueColumn) = \(position.id)"
                let rows = try enter(TableLayout.collectionTable(source, property), alias, condition, &subquery)
                position = Position(type: source, id: "\(alias).\(TableLayout.ownerColumn)", scope: rows)
            case .backlink(let source, let property, false):
                let alias = names.make()
                let condition = "\(alias).\(TableLayout.column(property)) = \(position.id)"
                let rows = try enter(TableLayout.objectTable(source), alias, condition, &subquery)
                let id = "\(alias).\(TableLayout.idColumn)"
                rows.register(alias: alias, forObjectId: id)
                position = Position(type: source, id: id, scope: rows)
            }
        }
        return position
    }

    /// The SQL of the value a path ends at (and of its mixed tag), on the object at `position`.
    private func value(_ end: ResolvedKeyPath.End, at position: Position, subquery: inout Subquery?) throws(KuraError)
        -> (value: String, tag: String?)
    {
        switch end {
        case .column(let name, let type):
            let alias = try position.scope.objectAlias(type: position.type, idExpression: position.id)
            let tag = type == .mixed ? "\(alias).\(TableLayout.tagColumn(name))" : nil
            return ("\(alias).\(TableLayout.column(name))", tag)
        case .link(let name):
            let alias = try position.scope.objectAlias(type: position.type, idExpression: position.id)
            return ("\(alias).\(TableLayout.column(name))", nil)
        case .elements(let owner, let property, let type, let keys):
            let alias = names.make()
            let condition = "\(alias).\(TableLayout.ownerColumn) = \(position.id)"
            _ = try enter(TableLayout.collectionTable(owner, property), alias, condition, &subquery)
            let tag = type == .mixed && !keys ? "\(alias).\(TableLayout.tagColumn)" : nil
            return ("\(alias).\(keys ? TableLayout.keyColumn : TableLayout.valueColumn)", tag)
        case .count(let source):
            try countSubqueryTable()
            return (Self.count(source, of: position.id), nil)
        }
    }

    // MARK: Sort keys

    /// The ORDER BY term of a sort key: a property, or a `@count`, reached through to-one links only.
    /// Decimals and mixed values sort as `ValueOrder` orders them.
    func orderTerm(_ key: SortKey, catalog: SchemaCatalog) throws(KuraError) -> OrderTerm {
        do {
            return try unplacedOrderTerm(key, catalog: catalog)
        } catch {
            throw error.placed(in: .sort, column: key.keyPath.column)
        }
    }

    private func unplacedOrderTerm(_ key: SortKey, catalog: SchemaCatalog) throws(KuraError) -> OrderTerm {
        let path = try KeyPathResolver(catalog: catalog, source: .sort).resolve(key.keyPath, from: root)
        func refuse(_ message: String) -> KuraError {
            KuraError.query(.invalidKeyPath, message, in: .sort, column: key.keyPath.column)
        }
        let toMany = "\(path.subject) goes through a list, set, map or linkingObjects: a sort key may follow only to-one links"
        guard !path.isToMany else { throw refuse(toMany) }
        var noSubquery: Subquery?
        let position = try follow(path.hops, into: &noSubquery)
        switch path.end {
        case .column(let name, let type):
            let alias = try scope.objectAlias(type: position.type, idExpression: position.id)
            let column = "\(alias).\(TableLayout.column(name))"
            if type == .mixed {
                let mixedKey = "\(MixedSortKey.function)(\(alias).\(TableLayout.tagColumn(name)), \(column))"
                return OrderTerm(expression: "\(mixedKey) COLLATE \(MixedSortKey.collation)", ascending: key.ascending)
            }
            let collation = type == .decimal ? " COLLATE \(QueryFunctions.decimalCollation)" : ""
            return OrderTerm(expression: "\(column)\(collation)", ascending: key.ascending)
        case .count(let source):
            try countSubqueryTable()
            return OrderTerm(expression: Self.count(source, of: position.id), ascending: key.ascending)
        case .link(let name):
            throw refuse("\(path.subject) is a link: sort by one of its properties (such as \(name).name)")
        case .elements:
            throw refuse(toMany)
        }
    }

    /// Adds a table of rows reached through a to-many step: the first one opens the comparison's
    /// subquery (correlated to the outer row by `condition`); later ones are joined into it.
    private func enter(
        _ table: String, _ alias: String, _ condition: String, _ subquery: inout Subquery?
    ) throws(KuraError) -> QueryScope {
        try countSubqueryTable()
        if let open = subquery {
            try open.scope.join(table, alias: alias, on: condition)
            return open.scope
        }
        let opened = QueryScope(table: table, alias: alias, names: names)
        subquery = (opened, condition)
        return opened
    }

    /// Counts one more table read in a subquery; refuses one past `maxSubqueryTables` (the caller
    /// places the error at its comparison or sort key).
    private func countSubqueryTable() throws(KuraError) {
        subqueryTables += 1
        guard subqueryTables > Self.maxSubqueryTables else { return }
        throw KuraError.query(
            .tooComplex,
            "the query reads lists, sets, maps, linkingObjects and @count in more than \(Self.maxSubqueryTables) places, "
                + "more than SQLite reads well for every object: compare several values at once, as in ANY tags IN {'a', 'b'}")
    }

    /// The number of elements, entries or (distinct) linking objects of the object whose id is `id`.
    private static func count(_ source: ResolvedKeyPath.CountSource, of id: String) -> String {
        switch source {
        case .collection(let owner, let property):
            "(SELECT count(*) FROM \(TableLayout.collectionTable(owner, property)) WHERE \(TableLayout.ownerColumn) = \(id))"
        case .backlink(let sourceType, let property, true):
            // An object listed twice in one list still links once, as linkingObjects reads it.
            "(SELECT count(DISTINCT \(TableLayout.ownerColumn)) FROM \(TableLayout.collectionTable(sourceType, property)) WHERE \(TableLayout.valueColumn) = \(id))"
        case .backlink(let sourceType, let property, false):
            "(SELECT count(*) FROM \(TableLayout.objectTable(sourceType)) WHERE \(TableLayout.column(property)) = \(id))"
        }
    }
}
