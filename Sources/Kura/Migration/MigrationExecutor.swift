import Foundation
import GRDB

/// Brings an existing realm from the schema it stores to the one it is opened with, inside the
/// transaction that opens it: additive changes on any open, the others only when migrating. Every
/// step is SQL in that one transaction, so a process killed halfway leaves the old realm.
struct MigrationExecutor {
    let realm: Realm
    let db: Database
    let stored: Schema
    let requested: Schema
    /// Whether changes other than additive ones may be made (a migration block or `performMigration`).
    let migrating: Bool

    /// Migrates, setting the realm's catalog; returns the write transaction objects were written in,
    /// whose reference scopes the caller settles when the transaction ends.
    func run() throws -> WriteTransaction? {
        ColumnSources.installFunctions(in: db)
        let columns = ColumnSources(now: Date())
        let (plan, types) = try MigrationPlanner(db: db, stored: stored, requested: requested, columns: columns).plan()
        let oldTypeIds = try SchemaInstaller.typeIds(db)
        guard !plan.isEmpty else {
            realm.catalog = SchemaCatalog(schema: stored, typeIds: oldTypeIds)
            return nil
        }
        if !migrating, let first = plan.changes.first(where: { !$0.isAdditive }) {
            throw KuraError.store(.schemaMismatch, "\(first): needs a migration")
        }
        let block = requested.version > stored.version ? realm.configuration.migrationBlock : nil
        // A block may mend duplicates and missing values; they are checked again once it returns.
        for problem in plan.problems where !(block != nil && problem.isResolvableByBlock) { throw problem }

        let rebuilder = TableRebuilder(db: db, plans: types, columns: columns)
        let layout = rebuilder.layout
        try rebuilder.setAside(layout)
        try rebuilder.build(layout)
        try SchemaInstaller.storeSchema(requested, in: db)
        realm.catalog = SchemaCatalog(schema: requested, typeIds: try SchemaInstaller.typeIds(db))
        let transaction = WriteTransaction(db: db, catalog: realm.catalog)
        transaction.isMigration = true
        do {
            if let block {
                let old = OldObjects(db: db, catalog: SchemaCatalog(schema: stored, typeIds: oldTypeIds), layout: layout)
                try run(block, on: Migration(realm: realm, old: old, rebuilder: rebuilder), transaction)
            }
            try verify(types, afterBlock: block != nil)
            try rebuilder.createKeyIndexes()
            let cleanup = MigrationCleanup(transaction: transaction)
            try cleanup.unlinkRemovedTypes(types.filter { $0.new == nil }.compactMap { oldTypeIds[$0.name] })
            try rebuilder.dropSetAside(layout)
            if block != nil || plan.changes.contains(where: \.kind.dropsValues) {
                try cleanup.deleteOrphanedEmbeddedObjects()
                try cleanup.deleteUnreferencedMixedContainers()
            }
            try transaction.flushCounters()
            try rebuilder.raiseKeyCounters()
        } catch {
            transaction.finishScopes(committed: false)
            throw error
        }
        realm.catalog = SchemaCatalog(schema: requested, typeIds: try SchemaInstaller.typeIds(db))
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
        for type in types where type.old != nil && type.rebuildsObjectTable {
            for property in type.properties where property.fill == .missing && !property.new.type.isCollection {
                try MigrationChecks.requireValues(property.new, of: type.name, in: db)
            }
            if afterBlock, let key = type.keyToCheck {
                try MigrationChecks.requireUnique(
                    TableLayout.column(key.new.name), arguments: [], of: TableLayout.objectTable(type.name), keyType: key.new.type,
                    path: "\(type.name).\(key.new.name)", in: db)
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
