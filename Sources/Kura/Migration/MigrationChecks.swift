import GRDB

/// The queries that check a migration against the data: before it (on the old tables) and after a
/// migration block (on the new ones).
enum MigrationChecks {
    /// How many duplicated values an error lists; the message says how many more there are.
    static let listedDuplicates = 20

    /// The number of rows of `table`, of those matching `condition` when given.
    static func count(_ table: String, where condition: String? = nil, in db: Database) throws -> Int {
        let filter = condition.map { " WHERE \($0)" } ?? ""
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)\(filter)") ?? 0
    }

    /// Fails with the values `expression` gives more than one row of `table`, as a primary key
    /// `path` of `keyType` would hold them.
    static func requireUnique(
        _ expression: String, arguments: [DatabaseValue], of table: String, keyType: PropertyType, path: String, in db: Database
    ) throws {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT "k", "n", count(*) OVER () FROM (
                    SELECT \(expression) AS "k", count(*) AS "n" FROM \(table) GROUP BY 1 HAVING "k" IS NOT NULL AND "n" > 1)
                ORDER BY "n" DESC, "k" LIMIT \(listedDuplicates)
                """,
            arguments: StatementArguments(arguments))
        guard let first = rows.first else { return }
        let total: Int = first[2] ?? rows.count
        var duplicates: [KuraError.DuplicateKey] = []
        for row in rows {
            duplicates.append(KuraError.DuplicateKey(value: try ScalarCodec.decode(row[0], as: keyType.nonOptional), count: row[1] ?? 0))
        }
        var listing = duplicates.map { "\($0.value) (\(Counted($0.count, "object")))" }.joined(separator: ", ")
        if total > duplicates.count { listing += ", and \(total - duplicates.count) more duplicated \(Counted(total - duplicates.count, "value").noun)" }
        throw KuraError.migration(
            .duplicateKeys,
            "\(path): cannot be the primary key: \(Counted(total, "value")) \(total == 1 ? "is" : "are") held by more than one object: \(listing)",
            duplicates: duplicates)
    }

    /// Fails when rows of `table` hold null in the column of a required property, after a migration
    /// block that was to give them values.
    static func requireValues(_ property: Property, of type: String, in db: Database) throws {
        let missing = try count(TableLayout.objectTable(type), where: "\(TableLayout.column(property.name)) IS NULL", in: db)
        guard missing > 0 else { return }
        throw KuraError.migration(
            .missingValues,
            "\(type).\(property.name): \(Counted(missing, "object")) \(missing == 1 ? "has" : "have") no value for the required \(property.type) property after the migration")
    }
}
