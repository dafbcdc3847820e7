import CKuraSQLite
import Foundation
import GRDB

/// A realm's SQLite connection, opened with Kura's settings: 16 KiB pages and WAL mode for a new
/// file, waits for other processes' locks, the query functions and the change tracker's triggers;
/// or a read-only connection that leaves the file and its folder as they were.
///
/// `Sendable`: GRDB serialises the connection's use by several threads.
final class SQLiteConnection: RelationalEngine {
    /// The connection.
    let queue: DatabaseQueue
    /// For a connection opened read-only, what closes it and tidies after it.
    private let readOnlyConnection: ReadOnlyConnection?
    let location: Location
    /// Records every commit's changes in the realm's change log.
    let changeTracker = ChangeTracker()

    /// What SQLite's SQL can hold, for the queries on this connection's realm.
    var queryLimits: QueryLimits { SQLiteLimits.query }

    /// The page size of new realm files, in bytes.
    static let pageSize = 16384

    /// Where the realm lives and how it is opened.
    struct Location: Sendable {
        /// A file path, `:memory:` for a private in-memory database, or `memory:NAME` for a shared one.
        var path: String
        var isInMemory: Bool
        /// How long to wait for a lock another connection holds, in seconds.
        var busyTimeout: TimeInterval
        /// Whether the connection only reads (ignored in memory, where nothing outlives the process).
        var readOnly: Bool
        /// Whether opening may turn a new or empty file into a realm (a schema was given).
        var mayCreate: Bool
    }

    /// Opens the connection to `location`, refusing a file that is not a realm and cannot become one.
    init(_ location: Location) throws {
        self.location = location
        if location.readOnly && !location.isInMemory {
            let connection = try ReadOnlyConnection(path: location.path, busyTimeout: location.busyTimeout) { db in
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
                QueryFunctions.install(in: db)
            }
            readOnlyConnection = connection
            queue = connection.queue
            return
        }
        if !location.isInMemory, try RealmFile.check(location.path, creating: location.mayCreate) {
            try Self.requireRealmBeforeWAL(location)
        }
        if !location.isInMemory { try RealmFile.requireWritable(location.path) }
        readOnlyConnection = nil
        queue = try Self.openQueue(location, Self.configuration(for: location))
    }

    /// GRDB's configuration of a writable connection to `location`.
    private static func configuration(for location: Location) -> GRDB.Configuration {
        var config = GRDB.Configuration()
        if location.isInMemory {
            config.busyMode = .timeout(location.busyTimeout)
        } else {
            let wait = LockWait(databasePath: location.path, timeout: location.busyTimeout)
            config.busyMode = .callback { wait.shouldRetry(numberOfTries: $0) }
        }
        config.foreignKeysEnabled = false
        config.label = "Kura"
        let usesWAL = !location.isInMemory
        let path = location.path
        config.prepareDatabase { db in
            // Takes effect only on a new, empty file (before WAL mode is set, below); an existing
            // realm keeps its page size. 16 KiB pages import faster than SQLite's default 4 KiB
            // (fewer pages to split, fewer WAL frames), and export and copy are no slower.
            try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Each created object is a savepoint, whose journal of changed pages spilled to a temp
            // file past 64 KiB: millions of small writes on an import. In memory it holds one
            // document's pages (sorting still spills to files; durability is unchanged).
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            QueryFunctions.install(in: db)
            try ChangeTracker.prepareConnection(db)
            if usesWAL { try useWAL(db, path: path) }
        }
        return config
    }

    /// Puts the file in WAL mode unless it is in it already. Not GRDB's `journalMode = .wal`: that
    /// also writes a table and drops it on every open whose `-wal` file is missing or empty, so
    /// opening a realm and closing it changed the file (its header's change counter and schema
    /// cookie), which backup and sync tools take for a change.
    private static func useWAL(_ db: Database, path: String) throws {
        guard try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" else { return }
        let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        guard mode == "wal" else {
            throw KuraError.store(.openFailed, "cannot put realm '\(path)' in WAL mode: SQLite kept journal mode \(mode ?? "unknown")")
        }
    }

    /// Opens the connection, waiting up to the busy timeout while another process holds the lock
    /// it needs.
    ///
    /// Opening switches a new file to WAL, which upgrades a read lock to a write lock: SQLite refuses
    /// that at once, without waiting, while another connection reads (several processes creating
    /// one realm together), so the open is tried again until the timeout.
    private static func openQueue(_ location: Location, _ config: GRDB.Configuration) throws(KuraError) -> DatabaseQueue {
        try retryingWhileBusy(path: location.path, timeout: location.busyTimeout) {
            if location.path == ":memory:" { return try DatabaseQueue(configuration: config) }
            if location.isInMemory {
                return try DatabaseQueue(named: String(location.path.dropFirst("memory:".count)), configuration: config)
            }
            return try DatabaseQueue(path: location.path, configuration: config)
        }
    }

    /// Runs `open`, again after a short pause whenever it fails with `SQLITE_BUSY`, for at most
    /// `timeout` seconds; any other failure (or the last busy one) becomes an `openFailed` error.
    static func retryingWhileBusy(
        path: String, timeout: TimeInterval, _ open: () throws -> DatabaseQueue
    ) throws(KuraError) -> DatabaseQueue {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: TimeInterval = 0.002
        while true {
            do {
                return try open()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.05)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                throw RealmFile.notARealm(path, "it is not an SQLite database")
            } catch {
                throw KuraError.store(.openFailed, "cannot open realm '\(path)': \(KuraError.describe(error))", underlying: error)
            }
        }
    }

    /// Refuses a database in rollback-journal mode that is not a realm before opening it switches
    /// the file to WAL: a read-only look at it first, since the switch changes the file.
    private static func requireRealmBeforeWAL(_ location: Location) throws {
        let probe = try ReadOnlyConnection(path: location.path, busyTimeout: location.busyTimeout)
        defer { probe.close() }
        let refused = try KuraError.catchingEngineErrors(sql: nil) {
            try probe.queue.read { db in
                try !SchemaInstaller.isInstalled(db) && (!location.mayCreate || SchemaInstaller.holdsTables(db))
            }
        }
        if refused { throw RealmFile.notARealm(location.path, "it is an SQLite database without Kura's tables") }
    }

    /// Closes a read-only connection and tidies after it; a writable one closes with its last use.
    func close() {
        readOnlyConnection?.close()
    }

    // MARK: Running

    /// Runs `body` in a read transaction of its own, which sees one state of the file.
    func snapshot<T>(_ body: (Database) throws -> T) throws -> T {
        try KuraError.catchingEngineErrors(sql: nil) { try queue.snapshot(body) }
    }

    /// Runs `body` in an immediate write transaction, committed when it returns and rolled back
    /// when it throws.
    func writeTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try KuraError.catchingEngineErrors(sql: nil) {
            try queue.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw KuraError.store(.database, "the write transaction returned no result") }
                return result
            }
        }
    }

    /// Runs `body` on the connection outside any transaction: for statements that manage their own.
    func outsideTransaction<T>(sql: String?, _ body: (Database) throws -> T) throws -> T {
        try KuraError.catchingEngineErrors(sql: sql) { try queue.writeWithoutTransaction(body) }
    }

    /// Starts writing the write-ahead log's new pages to disk, without waiting for them; 0, or the
    /// `errno` of what failed. Nothing to do in memory.
    func startWritingBack() -> Int32 {
        guard !location.isInMemory else { return 0 }
        return kura_start_writeback(location.path + "-wal")
    }

    /// Writes the whole database to the new file at `path` with `VACUUM INTO`, each page once.
    func copyWhole(into path: String) throws -> Bool {
        try outsideTransaction(sql: "VACUUM INTO ?") { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
        return true
    }
}
