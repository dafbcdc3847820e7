import Foundation
import GRDB

/// A connection that only reads a realm file, and the tidying its close needs.
///
/// SQLite reads a WAL database through its `-wal` and `-shm` files and creates them when they are
/// missing, even for a read-only connection, which cannot remove them again (that takes a write
/// lock): they would stay behind, owned by whoever read the realm. So:
/// - with a `-wal` file there, another connection uses the realm (or one stopped without closing):
///   the file is opened read-only and read through the files that are there, left as they are;
/// - without one, a process that may write the file and its folder opens it read-only too, and
///   once closed, makes the `-wal` and `-shm` files go the way a writer's close does: a connection
///   that reads and closes removes them when it is the last one (it has nothing to copy back);
/// - a process that may not (another user's realm, a read-only folder) opens it `immutable`: SQLite
///   reads the file as it is and creates nothing. Such a reader holds no lock, so a writer that
///   starts meanwhile and copies its log into the file may change pages under it.
///
/// `@unchecked Sendable`: a realm handle holding it is shared by threads; `isClosed`, its only
/// mutable state, is read and set under `closeLock`, so only one close ever runs.
final class ReadOnlyConnection: @unchecked Sendable {
    /// The connection (SQLite's `SQLITE_OPEN_READONLY`: every write fails).
    let queue: DatabaseQueue
    private let path: String
    /// Whether this connection's `-wal` and `-shm` files are to be removed after it.
    private let removesLogFiles: Bool
    private var isClosed = false
    private let closeLock = NSLock()

    /// Opens the realm file at `path`; `prepare` runs on the new connection.
    init(path: String, busyTimeout: TimeInterval, prepare: (@Sendable (Database) throws -> Void)? = nil) throws(KuraError) {
        try RealmFile.check(path, creating: false)
        var config = GRDB.Configuration()
        config.readonly = true
        config.busyMode = .timeout(busyTimeout)
        config.label = "Kura (read-only)"
        if let prepare { config.prepareDatabase(prepare) }
        let hasLog = RealmFile.exists(path + "-wal")
        let writable = RealmFile.isWritable(path)
        let opened = hasLog || writable ? path : Self.immutableURI(path)
        self.path = path
        removesLogFiles = !hasLog && writable
        queue = try SQLiteConnection.retryingWhileBusy(path: path, timeout: busyTimeout) {
            try DatabaseQueue(path: opened, configuration: config)
        }
    }

    deinit { close() }

    /// Closes the connection and removes the `-wal` and `-shm` files it made, unless another
    /// connection uses them. Closing twice does nothing.
    func close() {
        let first = closeLock.withLock {
            defer { isClosed = true }
            return !isClosed
        }
        guard first else { return }
        try? queue.close()
        guard removesLogFiles, RealmFile.exists(path + "-wal") || RealmFile.exists(path + "-shm") else { return }
        var config = GRDB.Configuration()
        config.label = "Kura (closing)"
        guard let closing = try? DatabaseQueue(path: path, configuration: config) else { return }
        _ = try? closing.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        try? closing.close()
    }

    /// The name under which a connection that writes elsewhere reads the realm file at `path`
    /// (attached to it), by the same rules: the path, or an `immutable` URI when this process may
    /// not write the file and no `-wal` file is there.
    static func readingName(_ path: String) -> String {
        RealmFile.exists(path + "-wal") || RealmFile.isWritable(path) ? path : immutableURI(path)
    }

    /// An SQLite URI that opens the file at `path` as one no process changes.
    private static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        return "file:" + encoded + "?immutable=1"
    }
}
