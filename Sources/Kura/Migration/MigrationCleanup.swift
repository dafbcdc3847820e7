import GRDB

/// Settles what a migration leaves behind once the new tables hold the data: links in mixed values
/// to objects of removed types, embedded objects whose parent property or type went away, and nested
/// mixed containers no value holds any more.
///
/// It finds these by what still refers to them rather than by what the plan removed, so that values
/// a migration block moved elsewhere (`renameProperty`) are kept.
struct MigrationCleanup {
    let transaction: WriteTransaction

    private var db: Database { get throws { try transaction.db } }
    private var catalog: SchemaCatalog { transaction.catalog }

    /// Removes mixed links to the removed types, whose old type ids are `removedTypeIds`.
    func unlinkRemovedTypes(_ removedTypeIds: [Int64]) throws {
        let deleter = ObjectDeleter(transaction: transaction)
        for typeId in removedTypeIds { try deleter.unlinkMixed(tag: MixedTag.linkBase + typeId, id: nil) }
    }

    /// Deletes embedded objects that no parent links to, with everything they own.
    func deleteOrphanedEmbeddedObjects() throws {
        let deleter = ObjectDeleter(transaction: transaction)
        for type in catalog.schema.types where type.isEmbedded {
            var parents: [String] = []
            for link in catalog.incoming[type.name] ?? [] {
                let name = link.property.name
                parents.append(link.property.type.isCollection
                    ? "SELECT \(TableLayout.valueColumn) FROM \(TableLayout.collectionTable(link.ownerType, name)) WHERE \(TableLayout.valueColumn) IS NOT NULL"
                    : "SELECT \(TableLayout.column(name)) FROM \(TableLayout.objectTable(link.ownerType)) WHERE \(TableLayout.column(name)) IS NOT NULL")
            }
            let table = TableLayout.objectTable(type.name)
            let orphans = parents.isEmpty
                ? "SELECT \(TableLayout.idColumn) FROM \(table)"
                : "SELECT \(TableLayout.idColumn) FROM \(table) WHERE \(TableLayout.idColumn) NOT IN (\(parents.joined(separator: " UNION ALL ")))"
            for id in try Int64.fetchAll(db, sql: orphans) {
                // A parent deleted with an earlier orphan may have taken this one with it.
                let ref = ObjectRef(type: type.name, id: id)
                if try ObjectReader(db: db, catalog: catalog).exists(ref) { try deleter.delete(ref) }
            }
        }
    }

    /// Deletes nested mixed containers that no stored value holds, level by level (a container freed
    /// frees the ones nested in it on the next pass), so no recursion follows the nesting.
    func deleteUnreferencedMixedContainers() throws {
        var holders: [String] = []
        for place in catalog.mixedLinkColumns {
            holders.append("SELECT \(place.value) FROM \(place.table) WHERE \(place.tag) IN (\(MixedTag.list), \(MixedTag.map))")
        }
        let sql = """
            DELETE FROM \(TableLayout.mixedTable) WHERE \(TableLayout.mixedContainerColumn) NOT IN (\(holders.joined(separator: " UNION ALL ")))
            """
        for _ in 0...MixedStore.maxDepth {
            try db.execute(sql: sql)
            if try db.changesCount == 0 { return }
        }
    }
}
