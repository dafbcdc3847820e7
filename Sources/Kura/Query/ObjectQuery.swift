import GRDB

/// A query over the objects of one type: which match a predicate, in which order, how many at most.
///
/// Everything is checked against the schema when the query is made, so a query that is made runs.
/// It compiles to one SELECT of object ids, which an exporter or copier runs in its own read
/// transaction with `matchingIds(_:)`.
struct ObjectQuery: Sendable {
    /// The queried type's name.
    let type: String
    /// `SELECT "#id" …`, ordered and limited.
    let sql: String
    let arguments: [DatabaseValue]

    /// Compiles a query; `predicate` nil matches every object, `sort` nil orders by object id (creation order).
    /// Asymmetric types can be read (for export) only with `allowsAsymmetric`.
    init(
        _ type: String, where predicate: String?, sortedBy sort: String? = nil, limit: Int? = nil,
        catalog: SchemaCatalog, allowsAsymmetric: Bool = false
    ) throws(QueryError) {
        try self.init(
            type, predicates: { () throws(QueryError) in try predicate.map { text throws(QueryError) in [try PredicateParser.parse(text)] } ?? [] },
            sortKeys: { () throws(QueryError) in try sort.map { text throws(QueryError) in try SortKey.parse(text) } ?? [] },
            limit: limit, catalog: catalog, allowsAsymmetric: allowsAsymmetric)
    }

    /// Compiles a query of parsed parts (see the other initializer); embedded types can be listed
    /// with `allowsEmbedded`, as `Realm.objects(_:)` does.
    init(
        _ type: String, predicates: [ParsedPredicate], sortKeys: [SortKey], catalog: SchemaCatalog, allowsEmbedded: Bool = false
    ) throws(QueryError) {
        try self.init(
            type, predicates: { predicates }, sortKeys: { sortKeys }, limit: nil, catalog: catalog, allowsEmbedded: allowsEmbedded)
    }

    /// Compiles a query: every predicate must hold (none matches every object), and objects are
    /// ordered by the sort keys, then by creation order. The parts are made as they are needed, so
    /// that errors come in the order of the type, the limit, the predicate and the sort keys.
    private init(
        _ type: String, predicates: () throws(QueryError) -> [ParsedPredicate], sortKeys: () throws(QueryError) -> [SortKey],
        limit: Int?, catalog: SchemaCatalog, allowsAsymmetric: Bool = false, allowsEmbedded: Bool = false
    ) throws(QueryError) {
        let schema = try Self.queryableType(
            type, catalog: catalog, allowsAsymmetric: allowsAsymmetric, allowsEmbedded: allowsEmbedded)
        if let limit, limit < 0 {
            throw QueryError(.invalidLimit, "the limit must be zero or more, not \(limit)")
        }
        let compiler = PredicateCompiler(root: schema, catalog: catalog)
        var condition: SQLFragment?
        let parsed = try predicates()
        switch parsed.count {
        case 0: break
        case 1: condition = try compiler.compile(parsed[0])
        default: condition = try compiler.compile(.and(parsed))
        }
        var order: [String] = []
        for key in try sortKeys() { order.append(try compiler.orderTerm(key, catalog: catalog)) }
        // Ties (and an unsorted query) fall back to creation order, so the output is always the same.
        order.append("\(compiler.rootAlias).\(TableLayout.idColumn)")
        var sql = "SELECT \(compiler.rootAlias).\(TableLayout.idColumn) \(compiler.scope.fromClause)"
        if let condition { sql += " WHERE " + condition.sql }
        sql += " ORDER BY " + order.joined(separator: ", ")
        if let limit { sql += " LIMIT \(limit)" }
        self.type = type
        self.sql = sql
        self.arguments = condition?.arguments ?? []
    }

    /// The ids of the matching objects, in order. `db` is a connection of a realm, which has the
    /// query functions installed.
    func matchingIds(_ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments))
    }

    /// The ids of at most `limit` matching objects from position `offset`, in order.
    func matchingIds(_ db: Database, limit: Int, offset: Int) throws -> [Int64] {
        try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM (\(sql)) LIMIT ? OFFSET ?"),
            arguments: StatementArguments(arguments + [limit.databaseValue, offset.databaseValue]))
    }

    /// How many objects match (within the limit).
    func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM (\(sql))"), arguments: StatementArguments(arguments)) ?? 0
    }

    /// The schema of a type that can be queried at the top level.
    static func queryableType(
        _ name: String, catalog: SchemaCatalog, allowsAsymmetric: Bool = false, allowsEmbedded: Bool = false
    ) throws(QueryError) -> ObjectSchema {
        guard let type = try? catalog.type(name) else {
            throw QueryError(.unknownType, catalog.schema.noTypeMessage(name))
        }
        if type.isEmbedded && !allowsEmbedded {
            throw QueryError(.notQueryable, "\(name) is embedded: query the type that owns it, through a key path")
        }
        if type.isAsymmetric && !allowsAsymmetric {
            throw QueryError(.notQueryable, "\(name) is asymmetric: its objects can be inserted and exported, not queried")
        }
        return type
    }
}
