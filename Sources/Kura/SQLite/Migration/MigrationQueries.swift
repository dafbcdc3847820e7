import GRDB

/// The queries that survey a realm's tables for a migration: before it (on the old tables) and after
/// a migration block (on the new ones).
enum MigrationQueries {
    /// The number of rows of `table`, of those matching `condition` when given.
    static func count(_ table: String, where condition: String? = nil, in db: Database) throws -> Int {
        let filter = condition.map { " WHERE \($0)" } ?? ""
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)\(filter)") ?? 0
    }

    /// The values `expression` gives more than one row of `table`, as a primary key of `keyType`
    /// would hold them; `nil` when there are none.
    static func duplicates(
        _ expression: String, arguments: [DatabaseValue], of table: String, keyType: PropertyType, in db: Database
    ) throws -> DuplicateKeys? {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT "k", "n", count(*) OVER () FROM (
                    SELECT \(expression) AS "k", count(*) AS "n" FROM \(table) GROUP BY 1 HAVING "k" IS NOT NULL AND "n" > 1)
                ORDER BY "n" DESC, "k" LIMIT \(DuplicateKeys.listedLimit)
                """,
            arguments: StatementArguments(arguments))
        guard let first = rows.first else { return nil }
        let total: Int = first[2] ?? rows.count
        var listed: [KuraError.DuplicateKey] = []
        for row in rows {
            listed.append(KuraError.DuplicateKey(value: try ScalarCodec.decode(row[0] as DatabaseValue, as: keyType.nonOptional), count: row[1] ?? 0))
        }
        return DuplicateKeys(listed: listed, total: total)
    }
}
