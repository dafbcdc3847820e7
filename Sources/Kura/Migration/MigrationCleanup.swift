/// Settles what a migration leaves behind once the new tables hold the data: links in mixed values
/// to objects of removed types, embedded objects whose parent property or type went away, and nested
/// mixed containers no value holds any more.
///
/// It finds these by what still refers to them rather than by what the plan removed, so that values
/// a migration block moved elsewhere (`renameProperty`) are kept.
struct MigrationCleanup {
    let transaction: WriteTransaction
    let storage: any MigrationStorage

    private var catalog: SchemaCatalog { transaction.catalog }

    /// Removes mixed links to the removed types, whose old type ids are `removedTypeIds`.
    func unlinkRemovedTypes(_ removedTypeIds: [Int64]) throws {
        let deleter = ObjectDeleter(transaction: transaction)
        for typeId in removedTypeIds { try deleter.unlinkMixed(fromType: typeId) }
    }

    /// Deletes embedded objects that no parent links to, with everything they own.
    func deleteOrphanedEmbeddedObjects() throws {
        let deleter = ObjectDeleter(transaction: transaction)
        for type in catalog.schema.types where type.isEmbedded {
            for id in try storage.orphanedEmbeddedIds(of: type.name) {
                // A parent deleted with an earlier orphan may have taken this one with it.
                let ref = ObjectRef(type: type.name, id: id)
                if try storage.isStored(ref) { try deleter.delete(ref) }
            }
        }
    }

    /// Deletes nested mixed containers that no stored value holds, level by level (a container freed
    /// frees the ones nested in it on the next pass), so no recursion follows the nesting.
    func deleteUnreferencedMixedContainers() throws {
        for _ in 0...MixedTag.maxDepth {
            if try storage.deleteUnreferencedMixedContainers() == 0 { return }
        }
    }
}
