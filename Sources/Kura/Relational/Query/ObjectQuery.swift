/// A query over the objects of one type: which match a predicate, in which order, how many at most.
///
/// Everything is checked against the schema when the query is made, so a query that is made runs.
/// It compiles to one SELECT of object ids, which the engine runs in a read transaction of its own
/// (an exporter's, a copier's) or in the open write transaction.
struct ObjectQuery: Sendable {
    /// The queried type's name.
    let type: String
    /// `SELECT "#id" …`, ordered and limited.
    let sql: String
    let arguments: [StoredCell]
    /// `SELECT "#id", <each sort key's value> …`, ordered and limited as `sql`, for page cursors.
    let pageSQL: String
    /// The sort order, as page cursors record it.
    let signature: String

    /// Compiles a query; `predicate` nil matches every object, `sort` nil orders by object id (creation order).
    /// The predicate may end in `SORT(…)`, `DISTINCT(…)` and `LIMIT(…)`, applied before `sort` and `limit`.
    /// Asymmetric types can be read (for export) only with `allowsAsymmetric`.
    /// With `after`, only the objects that come after the cursor's position in the sort order.
    /// `arguments` are the values of the predicate's `$0`, `$1` … (or `%@`) placeholders.
    /// `baseSort` is the order the objects start in, before the text's own `SORT`, `DISTINCT` and
    /// `LIMIT` (an export's primary-key order), creation order deciding its ties.
    init(
        _ type: String, where predicate: String?, arguments: [Value] = [], sortedBy sort: String? = nil, limit: Int? = nil,
        after: QueryCursor? = nil, baseSort: String? = nil, catalog: SchemaCatalog, allowsAsymmetric: Bool = false
    ) throws(KuraError) {
        try self.init(
            type,
            query: { () throws(KuraError) in
                guard let predicate else {
                    if !arguments.isEmpty {
                        throw KuraError.query(.argumentMismatch, "\(arguments.count) arguments given without a predicate to take them")
                    }
                    return ParsedQuery(predicate: .constant(true), descriptors: [])
                }
                return try PredicateParser.parseQuery(predicate, arguments: arguments)
            },
            sortKeys: { () throws(KuraError) in try sort.map { text throws(KuraError) in try SortKey.parse(text) } ?? [] },
            baseKeys: { () throws(KuraError) in try baseSort.map { text throws(KuraError) in try SortKey.parse(text) } ?? [] },
            limit: limit, after: after, catalog: catalog, allowsAsymmetric: allowsAsymmetric)
    }

    /// Compiles a query of parsed parts (see the other initializer): every predicate must hold,
    /// then the descriptors apply in order, then the sort keys; embedded types can be listed with
    /// `allowsEmbedded`, as `Realm.objects(_:)` does.
    init(
        _ type: String, predicates: [ParsedPredicate], descriptors: [QueryDescriptor] = [], sortKeys: [SortKey],
        catalog: SchemaCatalog, allowsEmbedded: Bool = false
    ) throws(KuraError) {
        let query = ParsedQuery(predicate: predicates.count == 1 ? predicates[0] : .and(predicates), descriptors: descriptors)
        try self.init(
            type, query: { query }, sortKeys: { sortKeys }, limit: nil, catalog: catalog, allowsEmbedded: allowsEmbedded)
    }

    /// Compiles a query: its predicate, its descriptors in order, then the sort keys (a new order,
    /// ties kept in the order so far, and creation order last) and the limit. The parts are made as
    /// they are needed, so that errors come in the order of the type, the limit, the predicate and
    /// the sort keys.
    private init(
        _ type: String, query: () throws(KuraError) -> ParsedQuery, sortKeys: () throws(KuraError) -> [SortKey],
        baseKeys: () throws(KuraError) -> [SortKey] = { [] }, limit: Int?, after: QueryCursor? = nil, catalog: SchemaCatalog, allowsAsymmetric: Bool = false, allowsEmbedded: Bool = false
    ) throws(KuraError) {
        let schema = try Self.queryableType(
            type, catalog: catalog, allowsAsymmetric: allowsAsymmetric, allowsEmbedded: allowsEmbedded)
        if let limit, limit < 0 {
            throw KuraError.query(.invalidLimit, "the limit must be zero or more, not \(limit)")
        }
        let compiler = PredicateCompiler(root: schema, catalog: catalog, limits: catalog.limits)
        let parsed = try query()
        var condition: SQLFragment?
        switch parsed.predicate {
        case .constant(true), .and([]): break
        default: condition = try compiler.compile(parsed.predicate)
        }
        let base = try baseKeys()
        var baseTerms: [OrderTerm] = []
        for key in base { baseTerms.append(try compiler.orderTerm(key)) }
        var plan = try QueryPlan(parsed.descriptors, startingIn: baseTerms, compiler: compiler)
        let keys = try sortKeys()
        var terms: [OrderTerm] = []
        for key in keys { terms.append(try compiler.orderTerm(key)) }
        plan.sort(by: terms)
        let signature = (plan.signature + (base + keys).map { key in
            key.keyPath.components.map(\.name).joined(separator: ".") + (key.ascending ? "" : " desc")
        }).joined(separator: ",")
        let rows = plan.rows(compiler: compiler, condition: condition?.sql)
        var clauses = rows.clauses
        var arguments = condition?.arguments ?? []
        if let after {
            guard after.signature == signature, after.values.count == rows.order.count else {
                throw KuraError.query(.invalidCursor, "the cursor belongs to another sort order: start again without it")
            }
            let keyset = Self.keyset(rows.order, after, idColumn: rows.id)
            clauses.append(keyset.sql)
            arguments += keyset.arguments
        }
        // Ties (and an unsorted query) fall back to creation order, so the output is always the same.
        let order = rows.order.map(\.sql) + [rows.id]
        var tail = " \(rows.from)"
        if !clauses.isEmpty { tail += " WHERE " + clauses.joined(separator: " AND ") }
        tail += " ORDER BY " + order.joined(separator: ", ")
        if let limit { tail += " LIMIT \(limit)" }
        self.type = type
        let dialect = catalog.limits.dialect
        self.sql = dialect.statement(rows.with + "SELECT \(rows.id)" + tail)
        self.pageSQL = dialect.statement(rows.with + "SELECT " + ([rows.id] + rows.order.map { dialect.pageValue($0.value, collation: $0.collation) }).joined(separator: ", ") + tail)
        self.signature = signature
        self.arguments = arguments
    }

    /// The condition that a row comes after `cursor` in the order of `terms` then the object id:
    /// after it on the first term, or tied on the first and after it on the second, and so on.
    private static func keyset(_ terms: [OrderTerm], _ cursor: QueryCursor, idColumn: String) -> (sql: String, arguments: [StoredCell]) {
        var alternatives: [String] = []
        var arguments: [StoredCell] = []
        var ties: [String] = []
        var tieArguments: [StoredCell] = []
        for (term, value) in zip(terms, cursor.values) {
            if let after = term.after(value) {
                alternatives.append("(" + (ties + [after.sql]).joined(separator: " AND ") + ")")
                arguments += tieArguments + after.arguments
            }
            let tie = term.tie(value)
            ties.append(tie.sql)
            tieArguments += tie.arguments
        }
        alternatives.append("(" + (ties + ["\(idColumn) > ?"]).joined(separator: " AND ") + ")")
        arguments += tieArguments + [.integer(cursor.id)]
        return ("(" + alternatives.joined(separator: " OR ") + ")", arguments)
    }

    /// The schema of a type that can be queried at the top level.
    static func queryableType(
        _ name: String, catalog: SchemaCatalog, allowsAsymmetric: Bool = false, allowsEmbedded: Bool = false
    ) throws(KuraError) -> ObjectSchema {
        guard let type = try? catalog.type(name) else {
            throw KuraError.query(.unknownType, catalog.schema.noTypeMessage(name))
        }
        if type.isEmbedded && !allowsEmbedded {
            throw KuraError.query(.notQueryable, "\(name) is embedded: query the type that owns it, through a key path")
        }
        if type.isAsymmetric && !allowsAsymmetric {
            throw KuraError.query(.notQueryable, "\(name) is asymmetric: its objects can be inserted and exported, not queried")
        }
        return type
    }
}
