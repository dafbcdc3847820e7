/// A realm's layout inside one transaction, as opening, migrating and writing it need: beside
/// `SchemaInstalling`, the writer and the migration storage of that transaction.
protocol RelationalSchemaStore: SchemaInstalling where Catalog == SchemaCatalog {
    /// What a migration reads and rebuilds the stored objects through; `encodeScalar` turns fills
    /// into stored cells.
    func migrationStorage(encodeScalar: @escaping MigrationScalarEncoder) -> any MigrationStorage
    /// The engine's side of a write transaction on this store's transaction, for `catalog`.
    func writer(for catalog: SchemaCatalog) -> any RelationalWriter
}

/// Turns a migration's fill value for a property of `type` (at `path`, for messages) into its stored cell.
typealias MigrationScalarEncoder = @Sendable (_ value: Value, _ type: PropertyType, _ path: String) throws(KuraError) -> StoredCell
