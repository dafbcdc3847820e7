/// Checks a realm's storage against the invariants Kura keeps, without changing it.
///
/// An engine checks its own integrity first, then what the layers above rely on: the metadata and
/// the stored schema, that every type and collection property has its place with the fields the
/// schema gives it, values that fit their property types, links that name objects that exist,
/// embedded objects with exactly one owner, nested mixed lists and maps, the indexes it keeps,
/// unique primary keys, and identifier counters ahead of every identifier in use.
///
/// An engine must read one consistent state of the realm, even while another process writes to
/// it, and must never write. Whatever it can read around is a finding, a part it cannot read
/// included, and storage the engine finds damaged throughout is a result with one integrity
/// finding; it throws a `KuraError` of the check domain only when the storage is not a realm
/// (`notARealm`) or cannot be read at all (`unreadable`).
package protocol StorageChecking {
    /// Checks the storage, listing at most `listedPerCheck` findings of one kind at one place and
    /// counting the others (`FindingCollector`).
    func check(listedPerCheck: Int) throws(KuraError) -> StorageCheckResult
}
