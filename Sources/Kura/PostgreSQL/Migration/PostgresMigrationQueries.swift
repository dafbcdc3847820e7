/// The queries that survey a PostgreSQL realm's tables for a migration: before it (on the old
/// tables) and after a migration block (on the new ones).
enum PostgresMigrationQueries {
    /// The number of rows of `table`, of those matching `condition` when given.
    static func count(_ table: String, where condition: String? = nil, in session: PostgresSession) throws(KuraError) -> Int {
        let filter = condition.map { " WHERE \($0)" } ?? ""
        guard case .integer(let count)? = try session.value("SELECT count(*) FROM \(table)\(filter)") else { return 0 }
        return Int(count)
    }

    /// The values `expression` gives more than one row of `table`, as a primary key of `keyType`
    /// would hold them; `nil` when there are none.
    static func duplicates(
        _ expression: String, arguments: [StoredCell], of table: String, keyType: PropertyType, in session: PostgresSession
    ) throws -> DuplicateKeys? {
        // The expression is evaluated before grouping: a generated key's window function may not
        // stand in a GROUP BY.
        let rows = try session.rows("""
            SELECT "k", "n", count(*) OVER () FROM (
                SELECT "k", count(*) AS "n" FROM (SELECT \(expression) AS "k" FROM \(table)) AS "keys" GROUP BY "k") AS "counted"
            WHERE "k" IS NOT NULL AND "n" > 1
            ORDER BY "n" DESC, "k" LIMIT \(DuplicateKeys.listedLimit)
            """, arguments)
        guard let first = rows.first else { return nil }
        let total = first.count > 2 ? first[2].objectId.map { Int($0) } ?? rows.count : rows.count
        var listed: [KuraError.DuplicateKey] = []
        for row in rows where row.count > 1 {
            let value = try ScalarCodec.decode(try PostgresLayout.read(row[0], as: keyType), as: keyType.nonOptional)
            listed.append(KuraError.DuplicateKey(value: value, count: row[1].objectId.map { Int($0) } ?? 0))
        }
        return DuplicateKeys(listed: listed, total: total)
    }
}
