import Foundation

/// A realm's PostgreSQL connection as the realm's engine: one session whose transactions hand out
/// the PostgreSQL snapshot, schema store and writer.
///
/// Reads run in repeatable-read, read-only transactions, so each sees one state of the realm.
/// Writers from every connection, process and machine take turns on a transaction-scoped advisory
/// lock of the realm's schema, taken first thing: identifier counters read after it are the
/// latest, and no two writers interleave, as with SQLite. The connection runs one transaction at a
/// time; callers on other threads wait their turn.
final class PostgresEngine: RelationalEngine {
    let location: PostgresLocation
    private let session: PostgresSession
    private let readOnly: Bool
    private let tracker = PostgresChangeTracker()
    /// One transaction at a time on the session.
    private let turn = NSLock()

    /// How long a writer waits for the lock while its holder writes nothing.
    private let busyTimeout: TimeInterval

    /// Connects to the realm `url` names. Whether a schema without a realm may become one is the
    /// opener's to decide: it installs one only when it was given a schema.
    init(url: String, busyTimeout: TimeInterval, readOnly: Bool) throws {
        location = try PostgresLocation(url: url)
        session = try PostgresSession(location)
        self.busyTimeout = busyTimeout
        self.readOnly = readOnly
    }

    var queryLimits: QueryLimits { PostgresLimits.query }

    var notARealm: KuraError {
        KuraError.store(.notARealm, "'\(location.description)' is not a realm: its schema '\(location.schema)' holds no Kura tables")
    }

    func close() {
        session.close()
    }

    func readingSchema<T>(_ body: (any RelationalSchemaStore) throws -> T) throws -> T {
        try reading { try body(PostgresSchemaStore(session: session)) }
    }

    func writingSchema<T>(_ body: (any RelationalSchemaStore) throws -> T) throws -> T {
        try writing { try body(PostgresSchemaStore(session: session)) }
    }

    func snapshot<T>(catalog: SchemaCatalog, _ body: (any RelationalSnapshot) throws -> T) throws -> T {
        try reading { try body(PostgresSnapshot(session: session, catalog: catalog)) }
    }

    func writeTransaction<T>(
        catalog: (any RelationalSchemaStore) throws -> SchemaCatalog, _ body: (any RelationalWriter) throws -> T
    ) throws -> T {
        try writing {
            let store = PostgresSchemaStore(session: session)
            let catalog = try catalog(store)
            try tracker.begin(session, catalog: catalog, layoutVersion: try store.layoutVersion())
            let writer = PostgresWriter(session: session, catalog: catalog)
            let result = try body(writer)
            try writer.flush()
            try tracker.commit(session, modified: writer.modifiedObjects)
            return result
        }
    }

    func copyWhole(into path: String) throws -> Bool { false }

    func startWritingBack() -> Int32 { 0 }

    func withSetBasedSource<T>(_ source: any RelationalEngine, _ body: (Bool) throws -> T) throws -> T {
        try body(false)
    }

    // MARK: Transactions

    /// Runs `body` in a read-only transaction that sees one state of the realm.
    private func reading<T>(_ body: () throws -> T) throws -> T {
        try inTransaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", readOnly: true, body)
    }

    /// Runs `body` in a write transaction that holds the realm's writer lock.
    private func writing<T>(_ body: () throws -> T) throws -> T {
        guard !readOnly else {
            throw KuraError.store(.database, "cannot write realm '\(location.description)': it was opened read-only")
        }
        return try inTransaction("BEGIN") {
            try PostgresWriterLock(session: session, location: location, timeout: busyTimeout).take()
            return try body()
        }
    }

    /// Runs `body` in a transaction that `begin` starts. `BEGIN` is sent without waiting for its
    /// answer (the body's first statement follows it and checks it), and so is a read-only
    /// transaction's `COMMIT` (the session's next statement checks it): two round trips fewer
    /// for a short read. A write's `COMMIT` is waited for, as it says whether the write is stored.
    private func inTransaction<T>(_ begin: String, readOnly: Bool = false, _ body: () throws -> T) throws -> T {
        turn.lock()
        defer { turn.unlock() }
        try session.send(begin)
        do {
            let result = try body()
            if readOnly { try session.send("COMMIT") } else { try session.execute("COMMIT") }
            return result
        } catch {
            // A lost connection has nothing left to roll back; the error that ended the body is the one to tell.
            try? session.finishCopy()
            try? session.execute("ROLLBACK")
            throw error
        }
    }
}
