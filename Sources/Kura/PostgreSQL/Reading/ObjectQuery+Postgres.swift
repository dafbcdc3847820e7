/// Running a compiled query on a PostgreSQL connection of the realm.
extension ObjectQuery {
    /// The query's arguments as PostgreSQL's columns store them (texts as bytes).
    private var storedArguments: [StoredCell] { arguments.map(PostgresLayout.stored) }

    /// The matching ids, at most `limit` (the query's own limit should be one more), and the cursor
    /// after the last of them when more match.
    func page(_ session: PostgresSession, limit: Int) throws -> (ids: [Int64], next: QueryCursor?) {
        let rows = try session.rows(pageSQL, storedArguments)
        let kept = rows.prefix(limit)
        let ids = kept.compactMap { $0.first?.objectId }
        guard rows.count > limit, let last = kept.last, let id = ids.last else { return (ids, nil) }
        return (ids, QueryCursor(signature: signature, values: Array(last.dropFirst()), id: id))
    }

    /// The ids of the matching objects, in order.
    func matchingIds(_ session: PostgresSession) throws -> [Int64] {
        try session.rows(sql, storedArguments).compactMap { $0.first?.objectId }
    }

    /// The ids of at most `limit` matching objects from position `offset`, in order.
    func matchingIds(_ session: PostgresSession, limit: Int, offset: Int) throws -> [Int64] {
        try session.rows(
            "SELECT * FROM (\(sql)) AS matching LIMIT ? OFFSET ?", storedArguments + [.integer(Int64(limit)), .integer(Int64(offset))]
        ).compactMap { $0.first?.objectId }
    }

    /// How many objects match (within the limit).
    func count(_ session: PostgresSession) throws -> Int {
        Int(try session.value("SELECT count(*) FROM (\(sql)) AS matching", storedArguments)?.objectId ?? 0)
    }
}
