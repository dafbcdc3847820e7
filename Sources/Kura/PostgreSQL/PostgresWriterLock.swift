import Foundation

/// The lock a PostgreSQL realm's writers take turns on: a transaction-scoped advisory lock keyed
/// by the realm's schema, taken first thing in every write transaction.
///
/// A writer waits for it as a SQLite realm's writer waits for its file: for as long as the holder
/// keeps working, however long its transaction takes, and gives up only after `timeout` seconds
/// in which the holder did nothing (a transaction left idle). It waits in slices, asking between
/// them whether the holder's statement is running.
struct PostgresWriterLock {
    let session: PostgresSession
    let location: PostgresLocation
    let timeout: TimeInterval

    /// Kura's key of the realm's lock; the other is the hash of the schema's name.
    private static let kuraKey: Int64 = 1_264_939_617
    private static let slice: TimeInterval = 0.5

    /// Takes the lock, waiting as long as its holder works.
    func take() throws {
        let milliseconds = Int(max(min(timeout, Self.slice), 0.01) * 1000)
        try session.execute("SET LOCAL lock_timeout = '\(milliseconds)ms'")
        let outcome = Result { try waitForTurn() }
        try? session.execute("SET LOCAL lock_timeout = 0")
        try outcome.get()
    }

    // A plain loop over one attempt per slice: a `defer` or a do/catch inside an endless loop
    // sends the compiler's stack-nesting pass into a very long run.
    private func waitForTurn() throws {
        var lastProgress = Date()
        while try !attempt() {
            if try holderIsWorking() { lastProgress = Date() }
            if Date().timeIntervalSince(lastProgress) >= timeout {
                throw KuraError.store(
                    .database,
                    "cannot write realm '\(location.description)': another connection holds its write lock and has done nothing for \(Int(timeout)) seconds")
            }
        }
    }

    /// Tries once for one slice; false when the slice passed with the lock still held elsewhere.
    private func attempt() throws -> Bool {
        try session.execute("SAVEPOINT \"kura#lock\"")
        do {
            try session.execute("SELECT pg_advisory_xact_lock(\(Self.kuraKey), hashtext(current_schema()))")
            try session.execute("RELEASE SAVEPOINT \"kura#lock\"")
            return true
        } catch {
            guard error.message.contains("55P03") else { throw error }
            try session.execute("ROLLBACK TO SAVEPOINT \"kura#lock\"")
            return false
        }
    }

    /// Whether the connection holding the lock is running a statement now. The lock's keys show
    /// as object ids: the schema's hash as its unsigned 32 bits.
    private func holderIsWorking() throws -> Bool {
        let state = try session.value("""
            SELECT a.state FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND l.classid::bigint = \(Self.kuraKey) AND l.objid::bigint = (hashtext(current_schema())::bigint & 4294967295)
            AND l.objsubid = 2
            """)
        return state == .text("active")
    }
}
