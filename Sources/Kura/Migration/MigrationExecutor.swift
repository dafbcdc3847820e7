/// Brings an existing realm from the schema it stores to the one it is opened with, inside the
/// transaction that opens it: additive changes on any open, the others only when migrating. Every
/// step the storage takes is in that one transaction, so a process killed halfway leaves the old realm.
struct MigrationExecutor {
    let realm: Realm
    /// The realm's storage, on the connection whose transaction opens it.
    let storage: any MigrationStorage
    let stored: Schema
    let requested: Schema
    /// Whether changes other than additive ones may be made (a migration block or `performMigration`).
    let migrating: Bool
    /// Opens the write transaction objects are written in, on the same connection, for the new
    /// schema's catalog.
    let openTransaction: (SchemaCatalog) -> WriteTransaction

    /// Encodes a fill as the writer encodes a value, so that the storage refuses a default the
    /// writer would refuse, with the writer's message.
    static let encodeFill: MigrationScalarEncoder = { value, type, path throws(KuraError) in
        try ObjectWriter.encodeScalar(value, as: type, path: path)
    }

    /// Migrates, setting the realm's catalog; returns the write transaction objects were written in,
    /// whose reference scopes the caller settles when the transaction ends.
    func run() throws -> WriteTransaction? {
        let (plan, types) = try MigrationPlanner(survey: storage, stored: stored, requested: requested).plan()
        let oldTypeIds = try storage.typeIds()
        guard !plan.isEmpty else {
            realm.catalog = SchemaCatalog(schema: stored, typeIds: oldTypeIds, limits: realm.catalog.limits)
            return nil
        }
        if !migrating, let first = plan.changes.first(where: { !$0.isAdditive }) {
            throw KuraError.store(.schemaMismatch, "\(first): needs a migration")
        }
        let block = requested.version > stored.version ? realm.configuration.migrationBlock : nil
        // A block may mend duplicates and missing values; they are checked again once it returns.
        for problem in plan.problems where !(block != nil && problem.isResolvableByBlock) { throw problem }

        try storage.setAside(types)
        try storage.build(types)
        try storage.storeSchema(requested)
        realm.catalog = SchemaCatalog(schema: requested, typeIds: try storage.typeIds(), limits: realm.catalog.limits)
        let transaction = openTransaction(realm.catalog)
        transaction.isMigration = true
        do {
            if let block {
                let old = OldObjects(reader: storage.oldObjects(of: stored, typeIds: oldTypeIds, plans: types), schema: stored)
                try run(block, on: Migration(realm: realm, old: old, storage: storage, plans: types), transaction)
            }
            try verify(types, afterBlock: block != nil)
            try storage.createKeyIndexes(types)
            let cleanup = MigrationCleanup(transaction: transaction, storage: storage)
            try cleanup.unlinkRemovedTypes(types.filter { $0.new == nil }.compactMap { oldTypeIds[$0.name] })
            try storage.dropSetAside(types)
            if block != nil || plan.changes.contains(where: \.kind.dropsValues) {
                try cleanup.deleteOrphanedEmbeddedObjects()
                try cleanup.deleteUnreferencedMixedContainers()
            }
            try transaction.storage.flush()
            try storage.raiseKeyCounters(types)
        } catch {
            transaction.finishScopes(committed: false)
            throw error
        }
        realm.catalog = SchemaCatalog(schema: requested, typeIds: try storage.typeIds(), limits: realm.catalog.limits)
        realm.openOutcome = .updated(plan.changes)
        return transaction
    }

    /// Runs the migration block with the realm in the migration's write transaction.
    private func run(_ block: MigrationBlock, on migration: Migration, _ transaction: WriteTransaction) throws {
        realm.transaction = transaction
        defer {
            realm.transaction = nil
            migration.finish()
        }
        try block(migration, Int(truncatingIfNeeded: stored.version))
        try transaction.requireResolvedReferences()
    }

    /// Checks what only the data after a migration block can tell: required properties the block was
    /// to fill, and new primary keys it may have mended (without a block the planner checked them).
    private func verify(_ types: [TypeMigration], afterBlock: Bool) throws {
        for type in types where type.old != nil && storage.rebuilds(type) {
            for property in type.properties where property.fill == .missing && !property.new.type.isCollection {
                try MigrationChecks.requireValues(property.new, of: type.name, in: storage)
            }
            if afterBlock, let key = type.keyToCheck, let found = try storage.duplicateValues(of: key.new, in: type.name) {
                throw MigrationChecks.duplicateKeys(found, path: "\(type.name).\(key.new.name)")
            }
        }
    }
}

extension SchemaChange.Kind {
    /// Whether the change drops stored values, which may leave embedded objects or nested mixed
    /// containers that nothing holds.
    var dropsValues: Bool {
        switch self {
        case .typeRemoved, .propertyRemoved, .typeChanged: true
        default: false
        }
    }
}
