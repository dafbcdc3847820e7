#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension Realm {
    /// Creates a new realm at `path` whole or not at all: it is built and filled at a hidden
    /// temporary path beside `path`, and appears at `path` only once `fill` has returned and the
    /// realm is closed.
    ///
    /// A process killed before that leaves no file at `path` (only the hidden
    /// `.NAME.kura-new-PID` files, which the next call removes once that process is gone), so the
    /// job can simply be run again; created in place, the
    /// file could be left empty, without Kura's tables, or an empty realm. `fill` must not keep
    /// the realm it is given. Fails, and leaves nothing behind, when a file appears at `path`
    /// meanwhile or `fill` throws.
    public static func createWhole<Result>(
        at path: String, schema: Schema, _ fill: (Realm) throws -> Result
    ) throws -> Result {
        let url = URL(fileURLWithPath: path)
        let building = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).kura-new-\(getpid())").path
        removeLeftovers(beside: url)
        defer { removeFiles(of: building) }
        let result = try fillNew(building, schema: schema, fill)
        // Closing the last connection checkpoints the WAL into the file and deletes it; a WAL still
        // there would hold committed pages that moving the file alone would lose.
        if FileManager.default.fileExists(atPath: building + "-wal") {
            throw StoreError(.database, "cannot create realm '\(path)': its write-ahead log was not folded into the file")
        }
        // A hard link, unlike rename, never replaces a file that appeared at `path` meanwhile.
        guard link(building, path) == 0 else {
            let reason = errno == EEXIST ? "a file appeared there meanwhile" : String(cString: strerror(errno))
            throw StoreError(.openFailed, "cannot create realm '\(path)': \(reason)")
        }
        return result
    }

    /// Opens the new realm, fills it and releases it, which closes its connection.
    private static func fillNew<Result>(_ path: String, schema: Schema, _ fill: (Realm) throws -> Result) throws -> Result {
        let realm = try Realm(path: path, schema: schema)
        return try fill(realm)
    }

    /// Removes the building files of earlier calls for the same path whose process no longer runs
    /// (killed, it could not remove them itself); this process's own are removed too.
    private static func removeLeftovers(beside url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).kura-new-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            var digits = name.dropFirst(prefix.count)
            for suffix in ["-wal", "-shm"] where digits.hasSuffix(suffix) { digits = digits.dropLast(suffix.count) }
            guard let pid = pid_t(digits) else { continue }
            // Signal 0 only asks whether the process exists.
            if pid == getpid() || (kill(pid, 0) == -1 && errno == ESRCH) {
                unlink(folder.appendingPathComponent(name).path)
            }
        }
    }

    private static func removeFiles(of path: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }
}
