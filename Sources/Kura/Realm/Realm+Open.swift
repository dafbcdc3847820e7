import Foundation
import GRDB

/// What opening a realm did to its file.
public enum OpenOutcome: Sendable, Equatable {
    /// The realm was there with the schema asked for (or none was asked for): nothing changed.
    case opened
    /// The file was not a realm yet: its tables and schema were installed.
    case created
    /// The stored schema was brought to the one asked for by these changes.
    case updated([SchemaChange])
}

extension Realm {
    /// Sets the catalog from the stored schema, first creating the realm or applying the requested
    /// schema when the file needs it.
    ///
    /// A realm that is there with the requested schema is read in a read transaction, which in WAL
    /// mode never waits for writers: an export or another import opens while an import's long
    /// transaction goes on. Only a change takes the write lock, and then looks again, since another
    /// process may have made the change meanwhile. A realm made before the link indexes
    /// (`LinkIndexes`) gets them that way when it is opened for writing.
    func openSchema(migrating: Bool) throws {
        var needsChangeLog = false
        let ready = try Self.run(sql: nil) {
            try connection.queue.snapshot { db -> SchemaCatalog? in
                guard let ready = try existingCatalog(db) else { return nil }
                if !configuration.readOnly, try !LinkIndexes.missing(in: db, schema: ready.schema).isEmpty { return nil }
                catalogCookie = try Self.schemaCookie(db)
                let hasLog = try ChangeTracker.hasTables(db)
                needsChangeLog = !configuration.readOnly && !hasLog
                return ready
            }
        }
        if let ready {
            catalog = ready
            // A realm made before change tracking gets its log on a writable open.
            if needsChangeLog {
                try Self.run(sql: nil) { try connection.queue.write { db in try ChangeTracker.installTables(db) } }
            }
            return
        }
        var migration: WriteTransaction?
        do {
            try connection.writeTransaction { db in
                migration = try prepareSchema(in: db, migrating: migrating)
                try LinkIndexes.addMissing(in: db, schema: catalog.schema)
                try ChangeTracker.installTables(db)
                if case .updated = openOutcome { try ChangeTracker.recordSchemaChange(db) }
                catalogCookie = try Self.schemaCookie(db)
            }
            migration?.finishScopes(committed: true)
        } catch {
            migration?.finishScopes(committed: false)
            throw error
        }
    }

    /// Takes up a schema another process stored since the catalog was made, reading through `snapshot`.
    func refreshCatalog(_ snapshot: Snapshot) throws {
        try refreshCatalog(snapshot.db)
    }

    /// Brings the catalog to the schema stored now, at the start of a write transaction: another
    /// process may have changed it since this realm read it (`kura init` with a newer schema adds a
    /// property with a default), and objects written by the old catalog would lack the new columns'
    /// values. SQLite's schema cookie tells cheaply whether any table changed.
    func refreshCatalog(_ db: Database) throws {
        let cookie = try Self.schemaCookie(db)
        guard cookie != catalogCookie else { return }
        db.clearSchemaCache()
        guard try SchemaInstaller.isInstalled(db) else {
            throw KuraError.store(.corruptRealm, "the realm's tables are gone: another process replaced '\(configuration.path)'")
        }
        let stored = try SchemaInstaller.storedSchema(db)
        if stored != catalog.schema {
            catalog = SchemaCatalog(schema: stored, typeIds: try SchemaInstaller.typeIds(db))
        }
        catalogCookie = cookie
    }

    /// Reloads the schema when another connection changed the stored one since this realm read it,
    /// for a realm kept open across many reads (SQLite's schema cookie tells cheaply whether it did).
    public func refresh() throws {
        try connection.snapshot { db in try refreshCatalog(db) }
    }

    /// SQLite's schema cookie, which every change to a table or index raises.
    private static func schemaCookie(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA schema_version")) ?? 0
    }

    /// The catalog of a realm that needs no change to open as configured; `nil` when it needs one.
    private func existingCatalog(_ db: Database) throws -> SchemaCatalog? {
        guard try SchemaInstaller.isInstalled(db) else {
            guard configuration.schema != nil else { throw notARealmYet }
            return nil
        }
        let stored = try SchemaInstaller.storedSchema(db)
        guard configuration.schema == nil || configuration.schema == stored else { return nil }
        return SchemaCatalog(schema: stored, typeIds: try SchemaInstaller.typeIds(db))
    }

    private var notARealmYet: KuraError {
        RealmFile.notARealm(configuration.path, "it is an SQLite database without Kura's tables")
    }

    /// Installs the requested schema in a new realm, or brings an existing realm to it; returns the
    /// write transaction a migration block used, if one ran.
    private func prepareSchema(in db: Database, migrating: Bool) throws -> WriteTransaction? {
        // GRDB caches table names per connection and never learns of other processes' changes: the
        // read before may have cached "no tables" for a realm another process has created since.
        db.clearSchemaCache()
        let requested = configuration.schema
        if try !SchemaInstaller.isInstalled(db) {
            // Kura's tables go only into a new or empty database, never beside another program's.
            guard let requested, try !SchemaInstaller.holdsTables(db) else { throw notARealmYet }
            try SchemaInstaller.install(requested, in: db)
            catalog = SchemaCatalog(schema: requested, typeIds: try SchemaInstaller.typeIds(db))
            openOutcome = .created
            return nil
        }
        let stored = try SchemaInstaller.storedSchema(db)
        guard let requested else {
            catalog = SchemaCatalog(schema: stored, typeIds: try SchemaInstaller.typeIds(db))
            return nil
        }
        // The storage engine a migration runs on is chosen here: SQLite, on the connection that opens
        // the realm, whose transaction the migration's objects are written in too.
        let storage = SQLiteMigrationStorage(db: db, encodeScalar: MigrationExecutor.encodeFill)
        return try MigrationExecutor(
            realm: self, storage: storage, stored: stored, requested: requested, migrating: migrating,
            openTransaction: { WriteTransaction(db: db, catalog: $0) }
        ).run()
    }
}
