/// Installs a new schema over a realm's stored objects, type by type as the plans say, inside the
/// caller's write transaction.
///
/// The steps run in this order: `setAside`, `build`, `storeSchema`, then (after a migration block
/// had its chance to mend keys and values) `createKeyIndexes`, `dropSetAside` and
/// `raiseKeyCounters`. An engine writes nothing outside the caller's transaction, so a failure at
/// any step (or a process killed) leaves the old realm once it rolls back.
package protocol SchemaRebuild {
    /// Sets aside the stored objects of the types and collections the plans replace or remove,
    /// readable as they were until `dropSetAside`.
    func setAside(_ plans: [TypeMigration]) throws

    /// Makes the storage of the new and changed types as a new realm would have it (without unique
    /// key indexes), carries the old values over with their fills, and raises key counters.
    func build(_ plans: [TypeMigration]) throws

    /// Stores `schema` as the realm's schema.
    func storeSchema(_ schema: Schema) throws

    /// The realm's type ids, by type name.
    func typeIds() throws -> [String: Int64]

    /// Whether the objects of `type` are stored anew, so that what they hold must be checked after a
    /// migration block.
    func rebuilds(_ type: TypeMigration) -> Bool

    /// The old objects set aside by `setAside`, read with the old `schema` and its type ids.
    func oldObjects(of schema: Schema, typeIds: [String: Int64], plans: [TypeMigration]) -> any OldObjectReading

    /// Replaces the values of `target` (of the new schema) in `type` with those `source` (of the old
    /// one) held, as a migration block's rename asks.
    func moveValues(of source: Property, to target: Property, in type: String, plans: [TypeMigration]) throws

    /// Makes the primary keys of the types stored anew unique.
    func createKeyIndexes(_ plans: [TypeMigration]) throws

    /// Drops what `setAside` kept, and the type ids of removed types.
    func dropSetAside(_ plans: [TypeMigration]) throws

    /// Moves the autoIncrement key counters of changed types past the keys their objects hold.
    func raiseKeyCounters(_ plans: [TypeMigration]) throws
}
