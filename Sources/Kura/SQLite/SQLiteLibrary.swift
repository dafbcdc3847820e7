import CKuraSQLite

/// Process-wide settings of the SQLite library under every realm.
public enum SQLiteLibrary {
    /// Sets SQLite up for bulk writing: turns off its memory statistics. The system's SQLite is
    /// built without a per-connection allocator, so every row written allocates, and with the
    /// statistics on each allocation and free also took a global mutex.
    ///
    /// Call it first thing in a process, before any thread uses SQLite (the `kura` command does).
    /// Returns false, changing nothing, when SQLite is already in use.
    @discardableResult
    public static func prepareForBulkWriting() -> Bool {
        kura_sqlite_disable_memory_statistics() == 0
    }
}
