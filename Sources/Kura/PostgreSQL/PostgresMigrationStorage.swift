/// A migration's storage for a PostgreSQL realm, which cannot migrate yet: every step throws an
/// error saying so, naming the realm, before anything is read or written.
struct PostgresMigrationStorage: MigrationStorage {
    let location: PostgresLocation

    /// The error every step throws.
    var notBuilt: KuraError {
        KuraError.migration(
            .unsupportedChange,
            "cannot migrate realm '\(location.description)': migrating a PostgreSQL realm is not supported yet")
    }

    func objectCount(of type: String) throws -> Int { throw notBuilt }
    func heldValues(of property: Property, in type: String) throws -> Int { throw notBuilt }
    func nulls(of property: Property, in type: String) throws -> Int { throw notBuilt }
    func duplicateKeys(_ key: PropertyMigration, of type: String) throws -> DuplicateKeys? { throw notBuilt }
    func duplicateValues(of property: Property, in type: String) throws -> DuplicateKeys? { throw notBuilt }
    func storedIds(of type: String) throws -> [Int64] { throw notBuilt }
    func isStored(_ ref: ObjectRef) throws -> Bool { throw notBuilt }

    func setAside(_ plans: [TypeMigration]) throws { throw notBuilt }
    func build(_ plans: [TypeMigration]) throws { throw notBuilt }
    func storeSchema(_ schema: Schema) throws { throw notBuilt }
    func typeIds() throws -> [String: Int64] { throw notBuilt }
    func rebuilds(_ type: TypeMigration) -> Bool { true }
    func oldObjects(of schema: Schema, typeIds: [String: Int64], plans: [TypeMigration]) -> any OldObjectReading {
        Unreadable(error: notBuilt)
    }
    func moveValues(of source: Property, to target: Property, in type: String, plans: [TypeMigration]) throws { throw notBuilt }
    func createKeyIndexes(_ plans: [TypeMigration]) throws { throw notBuilt }
    func dropSetAside(_ plans: [TypeMigration]) throws { throw notBuilt }
    func raiseKeyCounters(_ plans: [TypeMigration]) throws { throw notBuilt }

    func orphanedEmbeddedIds(of type: String) throws -> [Int64] { throw notBuilt }
    func deleteUnreferencedMixedContainers() throws -> Int { throw notBuilt }

    /// Old objects that cannot be read: every read throws `error`.
    private struct Unreadable: OldObjectReading {
        let error: KuraError
        func ids(of type: String) throws -> [Int64] { throw error }
        func value(of ref: ObjectRef, _ property: Property) throws -> Value? { throw error }
    }
}
