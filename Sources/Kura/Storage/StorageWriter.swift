/// What the object writer needs from a realm's storage inside one write transaction, beside the
/// rows it stages: identifiers, counters, savepoints and the effects of a deletion.
///
/// One writer serves one open write transaction on one thread. Types are named by their position
/// in the schema's stored types (`index`), so that the hot path looks nothing up by name. What the
/// writer stages may be held back and written in batches: the engine writes it before anything
/// that could see it runs, and before commit (`flush`).
package protocol StorageWriter: AnyObject {
    /// A new internal object id for the type at `index`: one above the highest ever handed out.
    func nextObjectId(ofType index: Int) throws -> Int64
    /// A new autoIncrement key for the type at `index`: one above the highest ever used.
    func nextAutoIncrementKey(ofType index: Int) throws -> Int64
    /// Raises the autoIncrement counter of the type at `index` past a key given explicitly.
    func noteExplicitKey(_ key: Int64, ofType index: Int) throws
    /// A new id for a nested mixed list or map.
    func nextMixedContainer() throws -> Int64
    /// Each type's last object id now, by type name, ids handed out in this transaction included.
    func objectIdFloors() throws -> [String: Int64]
    /// Writes every held row and the counters; called just before commit.
    func flush() throws

    /// Opens `savepoint`; what is written after it can be rolled back to it.
    func begin(_ savepoint: WriteSavepoint) throws
    /// Keeps what was written since `savepoint` and closes it.
    func release(_ savepoint: WriteSavepoint) throws
    /// Takes back everything written since `savepoint`, held rows included, and closes it.
    func rollBack(to savepoint: WriteSavepoint) throws
    /// The counters as they stand, for `restoreCounters` after a trial that is taken back: the
    /// engine's own record, which only it reads.
    var counterMark: any Sendable { get }
    /// Sets the counters back to `mark`, taken from this writer.
    func restoreCounters(_ mark: any Sendable)
    /// Whether `error`, thrown by this engine, is a failure of the realm rather than of one input.
    func isStoreFailure(_ error: any Error) -> Bool

    /// Clears the object's collections and nested mixed containers; returns its embedded children,
    /// for the caller to delete.
    func releaseOwned(by ref: ObjectRef, _ type: ObjectSchema) throws -> [ObjectRef]
    /// Deletes the object's own row; its links, collections and owned objects are the caller's.
    func deleteRow(of ref: ObjectRef) throws
    /// Nullifies to-one links to `ref` and removes it from lists (renumbered), sets and maps.
    func unlinkIncoming(_ ref: ObjectRef) throws
    /// Removes the mixed values tagged `tag` (links to one type), only those holding `id` when
    /// given: properties become null, collection elements and nested container entries are removed.
    func unlinkMixed(tag: Int64, id: Int64?) throws
    /// Deletes every element of one collection property of `ref`, with the nested mixed
    /// containers they hold; returns the embedded objects they owned, for the caller to delete.
    func removeCollection(of ref: ObjectRef, _ property: Property) throws -> [ObjectRef]
    /// How many places link to `ref` (link properties, collection elements, mixed values), up to `limit`.
    func linkCount(to ref: ObjectRef, upTo limit: Int) throws -> Int
    /// Points every link to `old` at `new`: link properties, collection elements and mixed values.
    func relink(from old: ObjectRef, to new: ObjectRef) throws
    /// Records that an object's collections changed, which its row does not show.
    func noteModified(_ ref: ObjectRef) throws
}

/// The savepoints a write transaction opens inside itself.
package enum WriteSavepoint: Sendable {
    /// Around one change, so that a failed change leaves nothing behind.
    case change
    /// Around a tentative write that is kept only when it turns out as hoped.
    case trial
}
