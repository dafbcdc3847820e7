import GRDB

extension DatabaseQueue {
    /// Runs `body` in a read transaction: one consistent snapshot of the realm, or the transaction
    /// already open on the connection.
    ///
    /// GRDB's `read` also sets `PRAGMA query_only` on a writable connection and clears it after,
    /// and changing that pragma expires every prepared statement of the connection: each read then
    /// compiled all its cached statements again, which was most of a keyed read's work.
    func snapshot<T>(_ body: (Database) throws -> T) throws -> T {
        try inDatabase { db in
            if db.isInsideTransaction { return try body(db) }
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            do {
                let value = try body(db)
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                return value
            } catch {
                try? db.rollback()
                throw error
            }
        }
    }
}
