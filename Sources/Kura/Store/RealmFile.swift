#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What is at a realm's path before SQLite opens it, so that every way of opening a realm refuses a
/// path that cannot be one with the same message, before SQLite creates or changes anything.
enum RealmFile {
    /// The first 16 bytes of every SQLite database file.
    private static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// The message every command prints for a file that is not a realm.
    static func notARealm(_ path: String, _ reason: String) -> StoreError {
        StoreError(.notARealm, "'\(path)' is not a realm: \(reason)")
    }

    /// Refuses what cannot be opened as a realm: a folder, a file that is not an SQLite database,
    /// a missing folder; unless `creating`, also a missing or empty file. A file SQLite may take for
    /// a new database (missing or empty) passes when `creating`. Returns whether the file is an
    /// SQLite database in rollback-journal mode (a realm is in WAL mode), which opening a realm
    /// would switch to WAL before it could tell whether the file is one.
    @discardableResult
    static func check(_ path: String, creating: Bool) throws(StoreError) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if let folder = missingFolder(of: path) {
                throw StoreError(.openFailed, "cannot open realm '\(path)': no folder '\(folder)'")
            }
            if code == ENOENT && !creating { throw StoreError(.openFailed, "no realm at '\(path)'") }
            return false  // SQLite says what else is wrong, or creates the file
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw StoreError(.notARealm, "'\(path)' is a folder, not a realm") }
        if info.st_size == 0 {
            if creating { return false }
            throw notARealm(path, "the file is empty")
        }
        // A `-wal` file beside it: in WAL mode, and maybe open in this process (a second handle, an
        // observer's connection). Closing a descriptor of the file would then drop every POSIX lock the
        // process holds on it, and another process would think its connection the last, checkpoint and
        // delete the `-wal` file under ours. SQLite reports a file that is no database.
        if exists(path + "-wal") { return false }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }  // SQLite reports it
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 20)).map(Array.init) ?? []
        if !header.starts(with: sqliteHeader) { throw notARealm(path, "it is not an SQLite database") }
        // Bytes 18 and 19: the file format versions for writing and reading, 2 in WAL mode.
        return header.count == 20 && header[18] != 2
    }

    /// Refuses to open for writing a realm file this process may not write, before SQLite makes
    /// `-wal` and `-shm` files beside it that its owner could not write past.
    static func requireWritable(_ path: String) throws(StoreError) {
        if access(path, F_OK) == 0 && access(path, W_OK) != 0 {
            throw StoreError(.openFailed, "cannot write realm '\(path)': \(String(cString: strerror(errno)))")
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
