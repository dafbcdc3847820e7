import Foundation

/// The PostgreSQL engine's side of opening a realm, on one session inside one transaction: the
/// realm's tables, its stored schema and change log, and the writer of that transaction.
struct PostgresSchemaStore: RelationalSchemaStore {
    let session: PostgresSession

    /// `#meta.layoutVersion`, which every change of the stored layout raises.
    func layoutVersion() throws -> Int64 {
        try PostgresSchemaInstaller.layoutVersion(session)
    }

    func forgetCachedLayout() {
        // Nothing is cached: every statement names its tables afresh.
    }

    func isInstalled() throws -> Bool {
        try PostgresSchemaInstaller.isInstalled(session)
    }

    func holdsData() throws -> Bool {
        try PostgresSchemaInstaller.holdsData(session)
    }

    func storedSchema() throws -> Schema {
        try PostgresSchemaInstaller.storedSchema(session)
    }

    func install(_ schema: Schema) throws {
        try PostgresSchemaInstaller.install(schema, in: session)
    }

    func catalog(for schema: Schema) throws -> SchemaCatalog {
        SchemaCatalog(schema: schema, typeIds: try PostgresSchemaInstaller.typeIds(session), limits: PostgresLimits.query)
    }

    /// Always false: every PostgreSQL realm was made with the indexes this version of Kura makes.
    func lacksIndexes(for schema: Schema) throws -> Bool {
        false
    }

    func addIndexes(for schema: Schema) throws {}

    func hasChangeLog() throws -> Bool {
        try PostgresSchemaInstaller.hasTables(["#changes", "#changed"], session)
    }

    func installChangeLog() throws {
        try PostgresSchemaInstaller.installChangeLog(session)
        try PostgresSchemaInstaller.raiseLayoutVersion(session)
    }

    /// Adds a version to the change log that says the schema changed: readers read everything again.
    func recordSchemaChange() throws {
        if try !hasChangeLog() { try installChangeLog() }
        try session.execute("""
            INSERT INTO \(PostgresSchemaInstaller.versionsTable) ("version", "time", "schemaChanged")
            SELECT coalesce(max("version"), 0) + 1, $1, true FROM \(PostgresSchemaInstaller.versionsTable)
            """, [.real(Date().timeIntervalSince1970)])
    }

    /// What a migration reads and rebuilds the stored objects through, in this session's transaction.
    func migrationStorage(encodeScalar: @escaping MigrationScalarEncoder) -> any MigrationStorage {
        PostgresMigrationStorage(session: session, encodeScalar: encodeScalar)
    }

    /// The engine's side of a write transaction on this session's open transaction, for `catalog`.
    func writer(for catalog: SchemaCatalog) -> any RelationalWriter {
        PostgresWriter(session: session, catalog: catalog)
    }
}
