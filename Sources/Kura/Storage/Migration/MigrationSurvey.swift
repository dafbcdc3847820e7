/// The facts about a realm's stored objects that planning and checking a migration needs.
///
/// It only reads, so that a plan can be made on a connection that cannot write. Each answer is
/// about the objects as stored when it is asked: before a migration, the old schema's; once the
/// new schema is stored, the new one's. Errors are `KuraError`s or the engine's own, which the
/// caller turns into `KuraError`s.
package protocol MigrationSurvey {
    /// The number of stored objects of `type`.
    func objectCount(of type: String) throws -> Int

    /// The number of values stored in `property` of `type`: objects holding a non-null value, or
    /// the elements of a list, set or map.
    func heldValues(of property: Property, in type: String) throws -> Int

    /// The number of objects of `type` holding null in `property` (not a list, set or map).
    func nulls(of property: Property, in type: String) throws -> Int

    /// The values more than one object of `type` would hold in the new primary key `key`: its old
    /// values (with the key's fill for objects without one); `nil` when there are none, or when the
    /// key takes no values from the stored objects.
    func duplicateKeys(_ key: PropertyMigration, of type: String) throws -> DuplicateKeys?

    /// The values more than one object of `type` holds in `property`; `nil` when there are none.
    func duplicateValues(of property: Property, in type: String) throws -> DuplicateKeys?

    /// The ids of the stored objects of `type`, in creation order.
    func storedIds(of type: String) throws -> [Int64]

    /// Whether the object `ref` is stored.
    func isStored(_ ref: ObjectRef) throws -> Bool
}
