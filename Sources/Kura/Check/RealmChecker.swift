import Foundation

/// Checks a realm without writing to it: the engine's own integrity (SQLite's `PRAGMA
/// integrity_check`, or that PostgreSQL holds the realm's indexes valid), then Kura's own
/// invariants (metadata and table layout, links, embedded objects, lists, nested mixed values,
/// keys and identifier counters).
///
/// The realm (a file, or a PostgreSQL URL) is read in one read-only transaction, so the report
/// describes one state of the realm even while another process writes to it. Every check is one set-based query per table
/// or column; a realm whose invariants are broken is reported on, never trusted.
///
/// ```swift
/// let report = try RealmChecker(path: "app.realm").check()
/// if !report.isHealthy { print(report) }
/// ```
public struct RealmChecker: Sendable {
    /// The realm to check: a file, or a `postgres://` URL.
    public var path: String
    /// At most how many findings of one kind at one place a report lists; one more line counts the others.
    public var listedPerCheck: Int
    /// How long to wait for a lock another process holds, in seconds.
    public var busyTimeout: TimeInterval

    /// Makes a checker for the realm at `path` (a file, or a `postgres://` URL).
    public init(path: String, listedPerCheck: Int = 20, busyTimeout: TimeInterval = 60) {
        self.path = path
        self.listedPerCheck = listedPerCheck
        self.busyTimeout = busyTimeout
    }

    /// Checks the realm; throws only when the file is missing, not a realm, or cannot be read, or
    /// when the server of a realm URL cannot be reached.
    public func check() throws(KuraError) -> CheckReport {
        // A server realm has no file to look for; any other path (`:memory:` too) names one.
        if !StorageEngines.isServerURL(path) { try requireFile() }
        let result = try storage.check(listedPerCheck: listedPerCheck)
        return CheckReport(
            path: path, findings: result.findings, problemCount: result.problemCount, objectCount: result.objectCount,
            typeCount: result.schema?.types.count ?? 0, schemaVersion: result.schema?.version)
    }

    /// Throws unless `path` is a file that SQLite may take for a realm.
    private func requireFile() throws(KuraError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw KuraError.check(.fileMissing, "no realm at '\(path)'")
        }
        if isFolder.boolValue { throw KuraError.check(.notARealm, "'\(path)' is a folder, not a realm") }
        // SQLite takes an empty file for an empty database; say what it is.
        if ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue == 0 {
            throw KuraError.check(.notARealm, "'\(path)' is not a realm: the file is empty")
        }
    }

    /// The storage engine that checks the realm.
    private var storage: any StorageChecking {
        StorageEngines.checker(path: path, busyTimeout: busyTimeout)
    }
}
