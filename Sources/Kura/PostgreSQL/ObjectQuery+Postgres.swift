/// Running a compiled query on a PostgreSQL session of the realm (compiled with
/// `PostgresQueryDialect`, the functions of `PostgresQueryFunctions` installed), its arguments
/// bound as the realm stores them: texts as their UTF-8 bytes.
extension ObjectQuery {
    /// The matching ids, at most `limit` (the query's own limit should be one more), and the cursor
    /// after the last of them when more match.
    func page(_ session: PostgresSession, limit: Int) throws(KuraError) -> (ids: [Int64], next: QueryCursor?) {
        let rows = try session.rows(pageSQL, storedArguments)
        let kept = rows.prefix(limit)
        var ids: [Int64] = []
        for row in kept { ids.append(try Self.id(row.first)) }
        guard rows.count > limit, let last = kept.last, let id = ids.last else { return (ids, nil) }
        return (ids, QueryCursor(signature: signature, values: Array(last.dropFirst()), id: id))
    }

    /// The ids of the matching objects, in order.
    func matchingIds(_ session: PostgresSession) throws(KuraError) -> [Int64] {
        try Self.ids(session.rows(sql, storedArguments))
    }

    /// The ids of at most `limit` matching objects from position `offset`, in order.
    func matchingIds(_ session: PostgresSession, limit: Int, offset: Int) throws(KuraError) -> [Int64] {
        let count = arguments.count
        let rows = try session.rows(
            "SELECT * FROM (\(sql)) AS \(TableLayout.quote("#page")) LIMIT $\(count + 1) OFFSET $\(count + 2)",
            storedArguments + [.integer(Int64(limit)), .integer(Int64(offset))])
        return try Self.ids(rows)
    }

    /// How many objects match (within the limit).
    func count(_ session: PostgresSession) throws(KuraError) -> Int {
        let value = try session.value("SELECT count(*) FROM (\(sql)) AS \(TableLayout.quote("#count"))", storedArguments)
        guard case .integer(let count)? = value else { return 0 }
        return Int(count)
    }

    /// The arguments as the realm's columns hold them.
    private var storedArguments: [StoredCell] {
        arguments.map(PostgresLayout.stored)
    }

    private static func ids(_ rows: [[StoredCell]]) throws(KuraError) -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(rows.count)
        for row in rows { ids.append(try id(row.first)) }
        return ids
    }

    private static func id(_ cell: StoredCell?) throws(KuraError) -> Int64 {
        guard case .integer(let id)? = cell else {
            throw KuraError.store(.corruptRealm, "a query read an object id that is not an integer")
        }
        return id
    }
}
