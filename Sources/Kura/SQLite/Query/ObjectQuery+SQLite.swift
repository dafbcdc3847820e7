import GRDB

/// Running a compiled query on an SQLite connection of the realm, which has the query functions installed.
extension ObjectQuery {
    /// The matching ids, at most `limit` (the query's own limit should be one more), and the cursor
    /// after the last of them when more match.
    func page(_ db: Database, limit: Int) throws -> (ids: [Int64], next: QueryCursor?) {
        let rows = try Row.fetchAll(db.cachedStatement(sql: pageSQL), arguments: StatementArguments(arguments))
        let kept = rows.prefix(limit)
        let ids = kept.map { row -> Int64 in row[0] }
        guard rows.count > limit, let last = kept.last, let id = ids.last else { return (ids, nil) }
        let values = (1..<last.count).map { StoredCell(last[$0] as DatabaseValue) }
        return (ids, QueryCursor(signature: signature, values: values, id: id))
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
            arguments: StatementArguments(arguments + [.integer(Int64(limit)), .integer(Int64(offset))]))
    }

    /// How many objects match (within the limit).
    func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM (\(sql))"), arguments: StatementArguments(arguments)) ?? 0
    }
}
