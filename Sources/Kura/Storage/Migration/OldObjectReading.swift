/// Reads the objects of a realm as its old schema stored them, while a migration runs: the values
/// a migration block reads from `MigrationObject`.
///
/// An engine keeps them readable from the moment the new schema's storage is built until the
/// objects set aside are dropped, within the migration's transaction.
package protocol OldObjectReading {
    /// The ids of the old objects of `type`, in creation order.
    func ids(of type: String) throws -> [Int64]

    /// The value the old object `ref` holds in `property` (a stored property of the old schema);
    /// `nil` when the old realm has no such object.
    func value(of ref: ObjectRef, _ property: Property) throws -> Value?
}
