/// One consistent state of a realm's storage, read by object: what results, dynamic objects,
/// models, observers and the change log read through.
///
/// An engine hands a snapshot out for the length of one read, or of the open write transaction,
/// whose uncommitted writes it then shows. Every call on one snapshot sees the same state, and
/// nothing read through it writes. Failures are `KuraError`s; an object that is not stored is
/// `.store(.objectDeleted)`.
package protocol StorageSnapshot {
    /// A query the engine compiled from a checked predicate and sort keys.
    associatedtype Query

    /// Whether the object is stored.
    func objectExists(_ ref: ObjectRef) throws -> Bool
    /// Every stored property of the object, by name, collections included.
    func values(of ref: ObjectRef) throws -> [String: Value]
    /// One property of the object; a `linkingObjects` property as a list of links.
    func value(of ref: ObjectRef, _ property: Property) throws -> Value
    /// The objects whose `relation` (a `linkingObjects` property of `ref`'s type) links to `ref`.
    func linkingObjects(of ref: ObjectRef, _ relation: Property) throws -> [ObjectRef]
    /// The id of the object of `type` whose primary key is `key`, or `nil`.
    func objectId(of type: ObjectSchema, primaryKey key: Value) throws -> Int64?
    /// The primary keys of the stored objects of `type` among `ids`, by id; ids no longer stored are left out.
    func primaryKeys(of type: ObjectSchema, ids: [Int64]) throws -> [Int64: Value]
    /// How many objects of `type` are stored.
    func objectCount(of type: String) throws -> Int
    /// Whether any object of `type` is stored.
    func holdsObjects(of type: String) throws -> Bool
    /// Calls `body` with the id of every stored object of `type`, one at a time without holding
    /// them all: by primary key when `byPrimaryKey` and the type has one, else in creation order.
    func forEachObjectId(of type: ObjectSchema, byPrimaryKey: Bool, _ body: (Int64) throws -> Void) throws
    /// The autoIncrement counter of `type` (the highest key ever handed out) and the highest key
    /// stored now; `nil` for a type without an autoIncrement key.
    func autoIncrementCounter(of type: ObjectSchema) throws -> (last: Int64, highest: Int64)?

    /// The ids of the objects `query` selects, in its order.
    func ids(matching query: Query) throws -> [Int64]
    /// At most `limit` of those ids, after skipping `offset`.
    func ids(matching query: Query, limit: Int, offset: Int) throws -> [Int64]
    /// How many objects `query` selects.
    func count(matching query: Query) throws -> Int

    /// A number that changes whenever a commit, from this process or another, changed the storage
    /// since the last snapshot of the same connection: whether cached reads still hold.
    func storageVersion() throws -> Int64
    /// The change log's last version (0 when no commit has been logged).
    func changeLogVersion() throws -> Int64
    /// The logged commits after `version`, oldest first, at most `limit`; keys decode by `schema`.
    /// Throws `.store(.changesPruned)` when the log no longer reaches back to `version`.
    func changes(after version: Int64, limit: Int, schema: Schema) throws -> [RealmChange]
}
