import Foundation

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
    /// What opening reads and changes the realm's layout through, whichever engine holds it.
    typealias SchemaStore = any RelationalSchemaStore

    /// Sets the catalog from the stored schema, first creating the realm or applying the requested
    /// schema when the file needs it.
    ///
    /// A realm that is there with the requested schema is read in a read transaction, which in WAL
    /// mode never waits for writers: an export or another import opens while an import's long
    /// transaction goes on. Only a change takes the write lock, and then looks again, since another
    /// process may have made the change meanwhile. A realm made before the link indexes gets them
    /// that way when it is opened for writing.
    func openSchema(migrating: Bool) throws {
        var needsChangeLog = false
        let ready = try connection.readingSchema { store -> SchemaCatalog? in
            guard let ready = try existingCatalog(store) else { return nil }
            if !configuration.readOnly, try store.lacksIndexes(for: ready.schema) { return nil }
            catalogCookie = try store.layoutVersion()
            needsChangeLog = try !configuration.readOnly && !store.hasChangeLog()
            return ready
        }
        if let ready {
            catalog = ready
            // A realm made before change tracking gets its log on a writable open.
            if needsChangeLog { try connection.writingSchema { store in try store.installChangeLog() } }
            return
        }
        var migration: WriteTransaction?
        do {
            try connection.writingSchema { store in
                migration = try prepareSchema(in: store, migrating: migrating)
                try store.addIndexes(for: catalog.schema)
                try store.installChangeLog()
                if case .updated = openOutcome { try store.recordSchemaChange() }
                catalogCookie = try store.layoutVersion()
            }
            migration?.finishScopes(committed: true)
        } catch {
            migration?.finishScopes(committed: false)
            throw error
        }
    }

    /// Takes up a schema another process stored since the catalog was made, reading through `snapshot`.
    func refreshCatalog(_ snapshot: Snapshot) throws {
        try refreshCatalog(snapshot.schemaStore)
    }

    /// Brings the catalog to the schema stored now, at the start of a write transaction: another
    /// process may have changed it since this realm read it (`kura init` with a newer schema adds a
    /// property with a default), and objects written by the old catalog would lack the new columns'
    /// values. The layout version tells cheaply whether any table changed.
    func refreshCatalog(_ store: SchemaStore) throws {
        let cookie = try store.layoutVersion()
        guard cookie != catalogCookie else { return }
        store.forgetCachedLayout()
        guard try store.isInstalled() else {
            throw KuraError.store(.corruptRealm, "the realm's tables are gone: another process replaced '\(configuration.path)'")
        }
        let stored = try store.storedSchema()
        if stored != catalog.schema {
            catalog = try store.catalog(for: stored)
        }
        catalogCookie = cookie
    }

    /// Reloads the schema when another connection changed the stored one since this realm read it,
    /// for a realm kept open across many reads (the layout version tells cheaply whether it did).
    public func refresh() throws {
        try connection.readingSchema { store in try refreshCatalog(store) }
    }

    /// The catalog of a realm that needs no change to open as configured; `nil` when it needs one.
    private func existingCatalog(_ store: SchemaStore) throws -> SchemaCatalog? {
        guard try store.isInstalled() else {
            guard configuration.schema != nil else { throw notARealmYet }
            return nil
        }
        let stored = try store.storedSchema()
        guard configuration.schema == nil || configuration.schema == stored else { return nil }
        return try store.catalog(for: stored)
    }

    private var notARealmYet: KuraError { connection.notARealm }

    /// Installs the requested schema in a new realm, or brings an existing realm to it; returns the
    /// write transaction a migration block used, if one ran.
    private func prepareSchema(in store: SchemaStore, migrating: Bool) throws -> WriteTransaction? {
        // The read before may have cached "no tables" for a realm another process has created since.
        store.forgetCachedLayout()
        let requested = configuration.schema
        if try !store.isInstalled() {
            // Kura's tables go only into a new or empty database, never beside another program's.
            guard let requested, try !store.holdsData() else { throw notARealmYet }
            try store.install(requested)
            catalog = try store.catalog(for: requested)
            openOutcome = .created
            return nil
        }
        let stored = try store.storedSchema()
        guard let requested else {
            catalog = try store.catalog(for: stored)
            return nil
        }
        // A migration runs on the connection that opens the realm, whose transaction the
        // migration's objects are written in too.
        return try MigrationExecutor(
            realm: self, storage: store.migrationStorage(encodeScalar: MigrationExecutor.encodeFill), stored: stored,
            requested: requested, migrating: migrating, openTransaction: { WriteTransaction(storage: store.writer(for: $0)) }
        ).run()
    }
}
