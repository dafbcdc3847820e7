import GRDB

/// The SQLite engine's side of opening a realm, on one connection inside one transaction: the
/// realm's tables, its stored schema, link indexes and change-log tables, and what a migration
/// writes through.
struct SQLiteSchemaStore: RelationalSchemaStore {
    let db: Database

    func layoutVersion() throws -> Int64 {
        // SQLite's schema cookie, which every change to a table or index raises.
        try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA schema_version")) ?? 0
    }

    func forgetCachedLayout() {
        // GRDB caches table names per connection and never learns of other processes' changes.
        db.clearSchemaCache()
    }

    func isInstalled() throws -> Bool {
        try SchemaInstaller.isInstalled(db)
    }

    func holdsData() throws -> Bool {
        try SchemaInstaller.holdsTables(db)
    }

    func storedSchema() throws -> Schema {
        try SchemaInstaller.storedSchema(db)
    }

    func install(_ schema: Schema) throws {
        try SchemaInstaller.install(schema, in: db)
    }

    func catalog(for schema: Schema) throws -> SchemaCatalog {
        SchemaCatalog(schema: schema, typeIds: try SchemaInstaller.typeIds(db), limits: SQLiteLimits.query)
    }

    func lacksIndexes(for schema: Schema) throws -> Bool {
        try !LinkIndexes.missing(in: db, schema: schema).isEmpty
    }

    func addIndexes(for schema: Schema) throws {
        try LinkIndexes.addMissing(in: db, schema: schema)
    }

    func hasChangeLog() throws -> Bool {
        try ChangeTracker.hasTables(db)
    }

    func installChangeLog() throws {
        try ChangeTracker.installTables(db)
    }

    func recordSchemaChange() throws {
        try ChangeTracker.recordSchemaChange(db)
    }

    /// What a migration reads and rebuilds the stored objects through; `encodeScalar` turns fills
    /// into stored cells (see `ColumnSources`).
    func migrationStorage(encodeScalar: @escaping MigrationScalarEncoder) -> any MigrationStorage {
        SQLiteMigrationStorage(db: db, encodeScalar: encodeScalar)
    }

    /// The engine's side of a write transaction on this connection, for `catalog`.
    func writer(for catalog: SchemaCatalog) -> any RelationalWriter {
        SQLiteWriter(db: db, catalog: catalog)
    }
}
