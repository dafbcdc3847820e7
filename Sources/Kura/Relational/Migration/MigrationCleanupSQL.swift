/// The statements that find what a migration left behind by what still refers to it in the new
/// tables, for either engine: embedded objects nothing links to, and mixed containers no mixed
/// value holds.
enum MigrationCleanupSQL {
    /// The ids, ascending, of `type`'s objects that no link property or collection of `catalog`
    /// refers to.
    static func orphanedEmbeddedIds(of type: String, in catalog: SchemaCatalog) -> String {
        var parents: [String] = []
        for link in catalog.incoming[type] ?? [] {
            let name = link.property.name
            parents.append(link.property.type.isCollection
                ? "SELECT \(TableLayout.valueColumn) FROM \(TableLayout.collectionTable(link.ownerType, name)) WHERE \(TableLayout.valueColumn) IS NOT NULL"
                : "SELECT \(TableLayout.column(name)) FROM \(TableLayout.objectTable(link.ownerType)) WHERE \(TableLayout.column(name)) IS NOT NULL")
        }
        let select = "SELECT \(TableLayout.idColumn) FROM \(TableLayout.objectTable(type))"
        guard !parents.isEmpty else { return select + " ORDER BY 1" }
        return select + " WHERE \(TableLayout.idColumn) NOT IN (\(parents.joined(separator: " UNION ALL "))) ORDER BY 1"
    }

    /// The statement deleting every mixed container that no mixed value of `catalog` holds;
    /// `containerId` reads a container's id from a mixed value column, as the engine stores it.
    static func deleteUnreferencedMixedContainers(in catalog: SchemaCatalog, containerId: (String) -> String) -> String {
        var holders: [String] = []
        for place in catalog.mixedLinkColumns {
            holders.append("""
                SELECT \(containerId(place.value)) FROM \(place.table) WHERE \(place.tag) IN (\(MixedTag.list), \(MixedTag.map))
                """)
        }
        let delete = "DELETE FROM \(TableLayout.mixedTable)"
        // No mixed property left: no container is held (and PostgreSQL refuses an empty `IN ()`).
        guard !holders.isEmpty else { return delete }
        return delete + " WHERE \(TableLayout.mixedContainerColumn) NOT IN (\(holders.joined(separator: " UNION ALL ")))"
    }
}
