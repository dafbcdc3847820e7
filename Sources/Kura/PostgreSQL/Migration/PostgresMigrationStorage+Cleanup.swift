/// What a migration of a PostgreSQL realm leaves behind, found by what still refers to it in the
/// new tables.
extension PostgresMigrationStorage {
    func orphanedEmbeddedIds(of type: String) throws -> [Int64] {
        var parents: [String] = []
        for link in try currentCatalog.incoming[type] ?? [] {
            let name = link.property.name
            parents.append(link.property.type.isCollection
                ? "SELECT \(TableLayout.valueColumn) FROM \(TableLayout.collectionTable(link.ownerType, name)) WHERE \(TableLayout.valueColumn) IS NOT NULL"
                : "SELECT \(TableLayout.column(name)) FROM \(TableLayout.objectTable(link.ownerType)) WHERE \(TableLayout.column(name)) IS NOT NULL")
        }
        let table = TableLayout.objectTable(type)
        let orphans = parents.isEmpty
            ? "SELECT \(TableLayout.idColumn) FROM \(table) ORDER BY 1"
            : "SELECT \(TableLayout.idColumn) FROM \(table) WHERE \(TableLayout.idColumn) NOT IN (\(parents.joined(separator: " UNION ALL "))) ORDER BY 1"
        return try session.rows(orphans).compactMap { $0.first?.objectId }
    }

    func deleteUnreferencedMixedContainers() throws -> Int {
        var holders: [String] = []
        for place in try currentCatalog.mixedLinkColumns {
            // A mixed value column holds a container's id as its decimal text (`PostgresLayout.storedMixed`).
            holders.append("""
                SELECT convert_from(\(place.value), 'UTF8')::bigint FROM \(place.table)
                WHERE \(place.tag) IN (\(MixedTag.list), \(MixedTag.map))
                """)
        }
        let deleted = try session.value("""
            WITH "deleted" AS (
                DELETE FROM \(TableLayout.mixedTable) WHERE \(TableLayout.mixedContainerColumn) NOT IN (\(holders.joined(separator: " UNION ALL ")))
                RETURNING 1)
            SELECT count(*) FROM "deleted"
            """)
        return Int(deleted?.objectId ?? 0)
    }
}
