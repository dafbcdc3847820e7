extension Realm {
    /// Starts writing the write-ahead log's new pages to disk, without waiting for them.
    ///
    /// A long transaction (an import) puts its whole change in the log; its checkpoint then syncs
    /// the log and copies it into the realm file, and syncing a large log there keeps the import
    /// waiting at its end. Written back while the import
    /// still runs, the log is mostly on disk by then. Durability is unchanged: nothing waits here,
    /// and the checkpoint syncs the log as before. Does nothing for an in-memory realm, or when
    /// there is no log. Returns 0, or the `errno` of what failed (a hint only: callers go on).
    @discardableResult
    func startWritingBackLog() -> Int32 {
        connection.startWritingBack()
    }
}
