import Foundation
import GRDB

extension Realm {
    /// A connection to the realm file at `path` that never writes to it and leaves no file behind
    /// that was not there, for work that only reads (exports, checks, migration plans).
    ///
    /// SQLite reads a WAL database through its `-wal` and `-shm` files, and creates them when they
    /// are missing, even on a read-only connection, which cannot delete them again (that takes a
    /// write lock). So:
    /// - with a `-wal` file there, another connection uses the realm (or one stopped without closing):
    ///   the file is opened read-only and reads through the files that are there;
    /// - without one, a user who may write the file and its folder opens it like a writer but with
    ///   `query_only` on: SQLite refuses every write, and closing the last connection removes the
    ///   `-wal` and `-shm` files it made, as a writer's close does;
    /// - a user who may not (another user's realm, a read-only folder) opens it `immutable`: SQLite
    ///   reads the file as it is and creates nothing. Such a reader holds no lock, so a writer that
    ///   starts meanwhile and copies its log into the file may change pages under it.
    static func readOnlyQueue(
        _ path: String, busyTimeout: TimeInterval, prepare: (@Sendable (Database) throws -> Void)? = nil
    ) throws(StoreError) -> DatabaseQueue {
        try RealmFile.check(path, creating: false)
        var config = GRDB.Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.label = "Kura (read-only)"
        var openedPath = path
        if RealmFile.exists(path + "-wal") {
            config.readonly = true
        } else if RealmFile.isWritable(path) {
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = ON") }
        } else {
            config.readonly = true
            openedPath = immutableURI(path)
        }
        if let prepare { config.prepareDatabase(prepare) }
        return try retryingWhileBusy(path: path, timeout: busyTimeout) {
            try DatabaseQueue(path: openedPath, configuration: config)
        }
    }

    /// The name under which a connection that writes elsewhere reads the realm file at `path`
    /// (attached to it), by the rules of `readOnlyQueue`: the path, or an `immutable` URI when this
    /// process may not write the file and no `-wal` file is there.
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
