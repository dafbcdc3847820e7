import GRDB

/// What a migration leaves behind, found by what still refers to it in the new tables.
extension SQLiteMigrationStorage {
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
            ? "SELECT \(TableLayout.idColumn) FROM \(table)"
            : "SELECT \(TableLayout.idColumn) FROM \(table) WHERE \(TableLayout.idColumn) NOT IN (\(parents.joined(separator: " UNION ALL ")))"
        return try Int64.fetchAll(db, sql: orphans)
    }

    func deleteUnreferencedMixedContainers() throws -> Int {
        var holders: [String] = []
        for place in try currentCatalog.mixedLinkColumns {
            holders.append("SELECT \(place.value) FROM \(place.table) WHERE \(place.tag) IN (\(MixedTag.list), \(MixedTag.map))")
        }
        try db.execute(sql: """
            DELETE FROM \(TableLayout.mixedTable) WHERE \(TableLayout.mixedContainerColumn) NOT IN (\(holders.joined(separator: " UNION ALL ")))
            """)
        return db.changesCount
    }
}
