import Foundation

/// How the PostgreSQL checks query a realm inside the checker's one read-only transaction: each
/// statement in a savepoint of its own, since a statement that fails aborts the whole transaction
/// in PostgreSQL, and the checks go on past a part they cannot read.
struct PostgresCheckQueries {
    let session: PostgresSession

    /// How many rows a scan fetches at a time.
    static let batchSize = 1000

    private static let savepoint = TableLayout.quote("kura#check")
    private static let cursor = TableLayout.quote("kura#scan")

    /// The rows `sql` returns, each as its cells.
    func rows(_ sql: String, _ arguments: [StoredCell] = []) throws(KuraError) -> [[StoredCell]] {
        try guarded { () throws(KuraError) in try session.rows(sql, arguments) }
    }

    /// The first cell of the first row `sql` returns, or `nil` when it returns none.
    func value(_ sql: String, _ arguments: [StoredCell] = []) throws(KuraError) -> StoredCell? {
        try rows(sql, arguments).first?.first
    }

    /// Hands the rows of `sql` to `body` a batch at a time, through a cursor: a scan that checks
    /// values in Swift may pass over every row of a large table.
    func scan(_ sql: String, _ body: ([StoredCell]) throws -> Void) throws {
        try guarded { () throws(KuraError) in
            try session.execute("DECLARE \(Self.cursor) NO SCROLL CURSOR FOR \(sql)")
        }
        defer { _ = try? guarded { () throws(KuraError) in try session.execute("CLOSE \(Self.cursor)") } }
        while true {
            let batch = try rows("FETCH \(Self.batchSize) FROM \(Self.cursor)")
            for row in batch { try body(row) }
            if batch.count < Self.batchSize { break }
        }
    }

    /// Runs `body` in a savepoint, rolled back to when it fails so that the transaction goes on.
    private func guarded<T>(_ body: () throws(KuraError) -> T) throws(KuraError) -> T {
        try session.execute("SAVEPOINT \(Self.savepoint)")
        switch Result(catching: { () throws(KuraError) -> T in try body() }) {
        case .success(let result):
            try session.execute("RELEASE SAVEPOINT \(Self.savepoint)")
            return result
        case .failure(let error):
            try? session.execute("ROLLBACK TO SAVEPOINT \(Self.savepoint)")
            throw error
        }
    }
}
