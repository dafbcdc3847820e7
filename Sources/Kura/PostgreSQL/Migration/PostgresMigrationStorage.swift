import Foundation

/// A migration's storage on PostgreSQL: the facts it needs read with SQL, and the new schema
/// installed by rebuilding tables (`PostgresTableRebuilder`), all on the one session whose
/// transaction the migration runs in, so that a failure at any step leaves the old realm.
///
/// One instance serves one migration (or one plan): it holds the instant fills of `default: now`
/// take, and, once `storeSchema` ran, the new schema's catalog its cleanup queries follow.
final class PostgresMigrationStorage: MigrationStorage {
    let session: PostgresSession
    private let columns: ColumnSources
    /// The new schema's catalog, set by `storeSchema`.
    private var current: SchemaCatalog?

    /// A migration on `session`'s open transaction; `encodeScalar` turns fills into column values
    /// (see `ColumnSources`).
    init(session: PostgresSession, encodeScalar: @escaping MigrationScalarEncoder) {
        self.session = session
        columns = ColumnSources(now: Date(), encodeScalar: encodeScalar, dialect: PostgresMigrationLayout.dialect)
    }

    /// The new schema's catalog; the steps that follow it come after `storeSchema`.
    var currentCatalog: SchemaCatalog {
        get throws(KuraError) {
            guard let current else { throw KuraError.store(.database, "the migration has not stored its new schema") }
            return current
        }
    }

    private func rebuilder(_ plans: [TypeMigration]) -> PostgresTableRebuilder {
        PostgresTableRebuilder(session: session, plans: plans, columns: columns)
    }

    // MARK: Survey

    func objectCount(of type: String) throws -> Int {
        try PostgresMigrationQueries.count(TableLayout.objectTable(type), in: session)
    }

    func heldValues(of property: Property, in type: String) throws -> Int {
        if property.type.isCollection {
            return try PostgresMigrationQueries.count(TableLayout.collectionTable(type, property.name), in: session)
        }
        return try PostgresMigrationQueries.count(
            TableLayout.objectTable(type), where: "\(TableLayout.column(property.name)) IS NOT NULL", in: session)
    }

    func nulls(of property: Property, in type: String) throws -> Int {
        try PostgresMigrationQueries.count(
            TableLayout.objectTable(type), where: "\(TableLayout.column(property.name)) IS NULL", in: session)
    }

    func duplicateKeys(_ key: PropertyMigration, of type: String) throws -> DuplicateKeys? {
        guard let (sql, arguments) = try columns.expression(key, keyBase: 0) else { return nil }
        return try PostgresMigrationQueries.duplicates(
            sql, arguments: arguments, of: TableLayout.objectTable(type), keyType: key.new.type, in: session)
    }

    func duplicateValues(of property: Property, in type: String) throws -> DuplicateKeys? {
        try PostgresMigrationQueries.duplicates(
            TableLayout.column(property.name), arguments: [], of: TableLayout.objectTable(type), keyType: property.type, in: session)
    }

    func storedIds(of type: String) throws -> [Int64] {
        _ = try currentCatalog.type(type)
        return try session.rows("SELECT \(TableLayout.idColumn) FROM \(TableLayout.objectTable(type)) ORDER BY 1")
            .compactMap { $0.first?.objectId }
    }

    func isStored(_ ref: ObjectRef) throws -> Bool {
        try PostgresObjectReader(session: session, catalog: currentCatalog).exists(ref)
    }

    // MARK: Rebuild

    func setAside(_ plans: [TypeMigration]) throws {
        try rebuilder(plans).setAside(PostgresMigrationLayout.oldLayout(plans))
    }

    func build(_ plans: [TypeMigration]) throws {
        // Names PostgreSQL would cut to one are refused before any table is made.
        try PostgresNames.check(Schema(types: plans.compactMap(\.new)))
        try rebuilder(plans).build(PostgresMigrationLayout.oldLayout(plans))
    }

    func storeSchema(_ schema: Schema) throws {
        try PostgresSchemaInstaller.storeSchema(schema, in: session)
        current = SchemaCatalog(schema: schema, typeIds: try typeIds(), limits: PostgresLimits.query)
    }

    func typeIds() throws -> [String: Int64] {
        try PostgresSchemaInstaller.typeIds(session)
    }

    func rebuilds(_ type: TypeMigration) -> Bool { type.rebuildsObjectTable(in: PostgresMigrationLayout()) }

    func oldObjects(of schema: Schema, typeIds: [String: Int64], plans: [TypeMigration]) -> any OldObjectReading {
        PostgresOldObjectReader(
            session: session, catalog: SchemaCatalog(schema: schema, typeIds: typeIds, limits: PostgresLimits.query),
            layout: PostgresMigrationLayout.oldLayout(plans))
    }

    func moveValues(of source: Property, to target: Property, in type: String, plans: [TypeMigration]) throws {
        try rebuilder(plans).moveValues(of: source, to: target, in: type, from: PostgresMigrationLayout.oldLayout(plans))
    }

    func createKeyIndexes(_ plans: [TypeMigration]) throws {
        try rebuilder(plans).createKeyIndexes()
    }

    func dropSetAside(_ plans: [TypeMigration]) throws {
        try rebuilder(plans).dropSetAside(PostgresMigrationLayout.oldLayout(plans))
    }

    func raiseKeyCounters(_ plans: [TypeMigration]) throws {
        try rebuilder(plans).raiseKeyCounters()
    }
}
