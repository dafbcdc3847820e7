/// Deletes objects as Realm does: links to them become null, they leave every list,
/// set and map, and their embedded objects and nested mixed containers go with them.
struct ObjectDeleter {
    let transaction: WriteTransaction

    private var storage: WriteTransaction.Storage { transaction.storage }
    private var catalog: SchemaCatalog { transaction.catalog }

    /// Deletes `ref` and everything it owns; throws `objectDeleted` if it is not stored.
    func delete(_ ref: ObjectRef) throws {
        try storage.requireExists(ref)
        var pending = [ref]
        while let current = pending.popLast() {
            let stored = try catalog.storedType(current.type)
            pending.append(contentsOf: try storage.releaseOwned(by: current, stored.schema))
            try storage.unlinkIncoming(current)
            // A mixed value never links an embedded object, so deleting one has nothing to look for.
            if !stored.isEmbedded, let typeId = catalog.typeIds[current.type] {
                try storage.unlinkMixed(tag: MixedTag.linkBase + typeId, id: current.id)
            }
            try storage.deleteRow(of: current)
            transaction.count(stored, .deleted)
        }
    }

    /// Removes the mixed values that link to objects of the type whose id was `typeId`: properties
    /// become null, collection elements and nested container entries are removed.
    func unlinkMixed(fromType typeId: Int64) throws {
        try storage.unlinkMixed(tag: MixedTag.linkBase + typeId, id: nil)
    }
}
