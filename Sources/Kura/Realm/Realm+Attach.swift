import GRDB

extension Realm {
    /// Runs `body` with the SQLite file at `path` attached to this realm's connection as `alias`,
    /// so that one statement can read both; it is detached again afterwards.
    func withAttachedFile<T>(_ path: String, as alias: String, _ body: () throws -> T) throws -> T {
        let name = TableLayout.quote(alias)
        try Self.run(sql: "ATTACH DATABASE ? AS \(name)") {
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS \(name)", arguments: [path])
            }
        }
        defer {
            // Detaching fails only while a statement reads the file; every statement has finished here.
            try? queue.writeWithoutTransaction { db in try db.execute(sql: "DETACH DATABASE \(name)") }
        }
        return try body()
    }
}
