#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDBSQLite

/// What is at a realm's path before SQLite opens it, so that every way of opening a realm refuses a
/// path that cannot be one with the same message, before SQLite creates or changes anything.
enum RealmFile {
    /// The first 16 bytes of every SQLite database file.
    private static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// The message every command prints for a file that is not a realm.
    static func notARealm(_ path: String, _ reason: String) -> KuraError {
        KuraError.store(.notARealm, "'\(path)' is not a realm: \(reason)")
    }

    /// Refuses what cannot be opened as a realm: a folder, a file that is not an SQLite database,
    /// a missing folder; unless `creating`, also a missing or empty file. A file SQLite may take for
    /// a new database (missing or empty) passes when `creating`. Returns whether the file is an
    /// SQLite database in rollback-journal mode (a realm is in WAL mode), which opening a realm
    /// would switch to WAL before it could tell whether the file is one.
    @discardableResult
    static func check(_ path: String, creating: Bool) throws(KuraError) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if let folder = missingFolder(of: path) {
                throw KuraError.store(.openFailed, "cannot open realm '\(path)': no folder '\(folder)'")
            }
            if code == ENOENT && !creating { throw KuraError.store(.openFailed, "no realm at '\(path)'") }
            return false  // SQLite says what else is wrong, or creates the file
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw KuraError.store(.notARealm, "'\(path)' is a folder, not a realm") }
        if info.st_size == 0 {
            if creating { return false }
            throw notARealm(path, "the file is empty")
        }
        guard let header = header(of: path, count: min(20, Int(info.st_size))) else { return false }  // SQLite reports it
        if !header.starts(with: sqliteHeader) { throw notARealm(path, "it is not an SQLite database") }
        // Bytes 18 and 19: the file format versions for writing and reading, 2 in WAL mode.
        return header.count == 20 && header[18] != 2
    }

    /// The first `count` bytes of the file at `path` (at most its size), read through SQLite's own
    /// file layer; nil when it cannot be read.
    ///
    /// Closing any descriptor of a file drops every POSIX lock this process holds on it, those of
    /// its open SQLite connections included: another process could then take a realm in use for
    /// unused and delete its WAL. SQLite keeps its descriptor of a file open until no connection of
    /// the process holds a lock on it.
    private static func header(of path: String, count: Int) -> [UInt8]? {
        var connection: OpaquePointer?
        defer { sqlite3_close(connection) }
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let connection else { return nil }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK, let file,
            let read = file.pointee.pMethods?.pointee.xRead
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, Int32($0.count), 0) }
        return status == SQLITE_OK ? bytes : nil
    }

    /// Refuses to open for writing a realm file this process may not write, before SQLite makes
    /// `-wal` and `-shm` files beside it that its owner could not write past.
    static func requireWritable(_ path: String) throws(KuraError) {
        if access(path, F_OK) == 0 && access(path, W_OK) != 0 {
            throw KuraError.store(.openFailed, "cannot write realm '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    /// The folder of `path` when it does not exist or is not a folder; `nil` when it is one.
    static func missingFolder(of path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, folder != path else { return nil }
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue ? nil : folder
    }

    /// Whether a file (of any kind) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether this process may write the file at `path` and create files beside it.
    static func isWritable(_ path: String) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        return access(path, W_OK) == 0 && access(folder.isEmpty ? "." : folder, W_OK | X_OK) == 0
    }
}
