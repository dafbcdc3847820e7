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
        try createWhole(at: path) { building in try fillNew(building, schema: schema, fill) }
    }

    /// Copies this whole realm into a new realm file at `path`, made whole or not at all as
    /// `createWhole` makes one, and returns the objects copied per type.
    ///
    /// One `VACUUM INTO` writes the copy: each page once, from a consistent snapshot of this realm,
    /// where copying table by table into a new realm wrote every page to the write-ahead log and
    /// again when the log was folded in. Ids, counters and the schema are this realm's.
    public func copyWhole(to path: String) throws -> [String: ChangeCounts] {
        try Self.createWhole(at: path) { building in
            guard try connection.copyWhole(into: building) else {
                throw KuraError.transfer(.usage, "'\(configuration.path)' cannot be copied whole into a new realm file: copy it into an existing realm")
            }
            // Opened as a realm (which puts it in WAL mode) and closed again before it is synced.
            let counts = try Self.countObjects(in: Realm(path: building))
            try Self.sync(building)
            return counts
        }
    }

    /// Makes sure the file's contents are on disk, as a commit would.
    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw KuraError.store(.database, "cannot sync the copy at '\(path)': \(reason)")
        }
        close(descriptor)
    }

    /// The objects of each type that has any, as a copy reports them.
    private static func countObjects(in realm: Realm) throws -> [String: ChangeCounts] {
        let types = realm.schema.types.map(\.name)
        return try realm.read { snapshot in
            var counts: [String: ChangeCounts] = [:]
            for type in types {
                let count = try snapshot.objectCount(of: type)
                if count > 0 { counts[type] = ChangeCounts(inserted: count) }
            }
            return counts
        }
    }

    /// Whether a realm is at `path`: a file that exists, or a database schema that holds Kura's
    /// tables. Throws when a server realm's server cannot be asked.
    public static func holdsRealm(at path: String) throws -> Bool {
        guard !Configuration(path: path).isFile else { return FileManager.default.fileExists(atPath: path) }
        let connection = try StorageEngines.connect(path: path, isInMemory: false, busyTimeout: 60, readOnly: true, mayCreate: false)
        defer { connection.close() }
        return try connection.readingSchema { try $0.isInstalled() }
    }

    /// The files this process makes while it builds a new realm for `path` (`createWhole`,
    /// `copyWhole`), for a caller that must remove them if it is stopped.
    public static func buildingFiles(for path: String) -> [String] {
        let building = buildingPath(for: path)
        return ["", "-wal", "-shm", "-journal"].map { building + $0 }
    }

    private static func buildingPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).kura-new-\(getpid())").path
    }

    /// Builds a new realm file with `make`, at a hidden path beside `path`, then links it into place.
    private static func createWhole<Result>(at path: String, _ make: (String) throws -> Result) throws -> Result {
        let url = URL(fileURLWithPath: path)
        let building = buildingPath(for: path)
        removeLeftovers(beside: url)
        defer { removeFiles(of: building) }
        let result = try make(building)
        // Closing the last connection checkpoints the WAL into the file and deletes it; a WAL still
        // there would hold committed pages that moving the file alone would lose.
        if FileManager.default.fileExists(atPath: building + "-wal") {
            throw KuraError.store(.database, "cannot create realm '\(path)': its write-ahead log was not folded into the file")
        }
        // A hard link, unlike rename, never replaces a file that appeared at `path` meanwhile.
        guard link(building, path) == 0 else {
            let reason = errno == EEXIST ? "a file appeared there meanwhile" : String(cString: strerror(errno))
            throw KuraError.store(.openFailed, "cannot create realm '\(path)': \(reason)")
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
            for suffix in ["-wal", "-shm", "-journal"] where digits.hasSuffix(suffix) { digits = digits.dropLast(suffix.count) }
            guard let pid = pid_t(digits) else { continue }
            // Signal 0 only asks whether the process exists.
            if pid == getpid() || (kill(pid, 0) == -1 && errno == ESRCH) {
                unlink(folder.appendingPathComponent(name).path)
            }
        }
    }

    private static func removeFiles(of path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
