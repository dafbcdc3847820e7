import Foundation
import GRDB

/// A migration's storage on SQLite: the facts it needs read with SQL, and the new schema installed by
/// rebuilding tables (`TableRebuilder`), all on the one connection whose transaction the migration
/// runs in.
///
/// One instance serves one migration (or one plan): it holds the instant fills of `default: now`
/// take, and, once `storeSchema` ran, the new schema's catalog its cleanup queries follow.
final class SQLiteMigrationStorage: MigrationStorage {
    let db: Database
    private let columns: ColumnSources
    /// The new schema's catalog, set by `storeSchema`.
    private var current: SchemaCatalog?

    /// A migration on `db`; `encodeScalar` turns fills into column values (see `ColumnSources`).
    init(db: Database, encodeScalar: @escaping MigrationScalarEncoder) {
        self.db = db
        SQLiteMigrationLayout.installFunctions(in: db)
        columns = ColumnSources(now: Date(), encodeScalar: encodeScalar, dialect: SQLiteMigrationLayout.dialect)
    }

    /// Reads the realm file at `path` for a migration plan: hands `body` the schema the realm stores
    /// and the survey of its objects, in one read.
    static func survey<T>(
        path: String, busyTimeout: TimeInterval, encodeScalar: @escaping MigrationScalarEncoder,
        _ body: (_ stored: Schema, _ survey: any MigrationSurvey) throws -> T
    ) throws -> T {
        // Read-only: making a plan never writes to the file.
        let connection = try ReadOnlyConnection(path: path, busyTimeout: busyTimeout)
        defer { connection.close() }
        return try connection.queue.read { db in
            guard try SchemaInstaller.isInstalled(db) else {
                throw RealmFile.notARealm(path, "it is an SQLite database without Kura's tables")
            }
            let storage = SQLiteMigrationStorage(db: db, encodeScalar: encodeScalar)
            return try body(try SchemaInstaller.storedSchema(db), storage)
        }
    }

    /// The new schema's catalog; the steps that follow it come after `storeSchema`.
    var currentCatalog: SchemaCatalog {
        get throws(KuraError) {
            guard let current else { throw KuraError.store(.database, "the migration has not stored its new schema") }
            return current
        }
    }

    private func rebuilder(_ plans: [TypeMigration]) -> TableRebuilder {
        TableRebuilder(db: db, plans: plans, columns: columns)
    }

    // MARK: Survey

    func objectCount(of type: String) throws -> Int {
        try MigrationQueries.count(TableLayout.objectTable(type), in: db)
    }

    func heldValues(of property: Property, in type: String) throws -> Int {
        if property.type.isCollection {
            return try MigrationQueries.count(TableLayout.collectionTable(type, property.name), in: db)
        }
        return try MigrationQueries.count(
            TableLayout.objectTable(type), where: "\(TableLayout.column(property.name)) IS NOT NULL", in: db)
    }

    func nulls(of property: Property, in type: String) throws -> Int {
        try MigrationQueries.count(TableLayout.objectTable(type), where: "\(TableLayout.column(property.name)) IS NULL", in: db)
    }

    func duplicateKeys(_ key: PropertyMigration, of type: String) throws -> DuplicateKeys? {
        guard let (sql, arguments) = try columns.expression(key, keyBase: 0) else { return nil }
        return try MigrationQueries.duplicates(
            sql, arguments: arguments.map(\.databaseValue), of: TableLayout.objectTable(type), keyType: key.new.type, in: db)
    }

    func duplicateValues(of property: Property, in type: String) throws -> DuplicateKeys? {
        try MigrationQueries.duplicates(
            TableLayout.column(property.name), arguments: [], of: TableLayout.objectTable(type), keyType: property.type, in: db)
    }

    func storedIds(of type: String) throws -> [Int64] {
        try ObjectReader(db: db, catalog: currentCatalog).allIds(type)
    }

    func isStored(_ ref: ObjectRef) throws -> Bool {
        try ObjectReader(db: db, catalog: currentCatalog).exists(ref)
    }

    // MARK: Rebuild

    func setAside(_ plans: [TypeMigration]) throws {
        try rebuilder(plans).setAside(SQLiteMigrationLayout.oldLayout(plans))
    }

    func build(_ plans: [TypeMigration]) throws {
        try rebuilder(plans).build(SQLiteMigrationLayout.oldLayout(plans))
    }

    func storeSchema(_ schema: Schema) throws {
        try SchemaInstaller.storeSchema(schema, in: db)
        current = SchemaCatalog(schema: schema, typeIds: try typeIds(), limits: SQLiteLimits.query)
    }

    func typeIds() throws -> [String: Int64] {
        try SchemaInstaller.typeIds(db)
    }

    func rebuilds(_ type: TypeMigration) -> Bool { type.rebuildsObjectTable(in: SQLiteMigrationLayout()) }

    func oldObjects(of schema: Schema, typeIds: [String: Int64], plans: [TypeMigration]) -> any OldObjectReading {
        OldObjectReader(db: db, catalog: SchemaCatalog(schema: schema, typeIds: typeIds, limits: SQLiteLimits.query), layout: SQLiteMigrationLayout.oldLayout(plans))
    }

    func moveValues(of source: Property, to target: Property, in type: String, plans: [TypeMigration]) throws {
        try rebuilder(plans).moveValues(of: source, to: target, in: type, from: SQLiteMigrationLayout.oldLayout(plans))
    }

    func createKeyIndexes(_ plans: [TypeMigration]) throws {
        try rebuilder(plans).createKeyIndexes()
    }

    func dropSetAside(_ plans: [TypeMigration]) throws {
        try rebuilder(plans).dropSetAside(SQLiteMigrationLayout.oldLayout(plans))
    }

    func raiseKeyCounters(_ plans: [TypeMigration]) throws {
        try rebuilder(plans).raiseKeyCounters()
    }
}
