import Foundation
import GRDB

/// Checks a realm file without writing to it: SQLite's `PRAGMA integrity_check`, then Kura's own
/// invariants (metadata and table layout, links, embedded objects, lists, nested mixed values,
/// keys and identifier counters).
///
/// The file is opened read-only and read in one transaction, so the report describes one state of
/// the realm even while another process writes to it. Every check is one set-based query per table
/// or column; a realm whose invariants are broken is reported on, never trusted.
///
/// ```swift
/// let report = try RealmChecker(path: "app.realm").check()
/// if !report.isHealthy { print(report) }
/// ```
public struct RealmChecker: Sendable {
    /// The realm file to check.
    public var path: String
    /// At most how many findings of one kind at one place a report lists; one more line counts the others.
    public var listedPerCheck: Int
    /// How long to wait for a lock another process holds, in seconds.
    public var busyTimeout: TimeInterval

    /// Makes a checker for the realm file at `path`.
    public init(path: String, listedPerCheck: Int = 20, busyTimeout: TimeInterval = 60) {
        self.path = path
        self.listedPerCheck = listedPerCheck
        self.busyTimeout = busyTimeout
    }

    /// Checks the realm; throws only when the file is missing, not a realm, or cannot be read.
    public func check() throws(KuraError) -> CheckReport {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw KuraError.check(.fileMissing, "no realm at '\(path)'")
        }
        if isFolder.boolValue { throw KuraError.check(.notARealm, "'\(path)' is a folder, not a realm") }
        // SQLite takes an empty file for an empty database; say what it is.
        if ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue == 0 {
            throw KuraError.check(.notARealm, "'\(path)' is not a realm: the file is empty")
        }
        do {
            let connection = try ReadOnlyConnection(path: path, busyTimeout: busyTimeout)
            defer { connection.close() }
            return try connection.queue.inDatabase { db in
                // One snapshot for every query. Ended by a rollback, whose failure does not matter
                // (nothing was written), where a commit would fail on a file SQLite found malformed.
                try db.execute(sql: "BEGIN DEFERRED TRANSACTION")
                defer { try? db.execute(sql: "ROLLBACK TRANSACTION") }
                return try check(db)
            }
        } catch let error as KuraError where error.code.domain == .check {
            throw error
        } catch let error as KuraError where error.code == .store(.notARealm) {
            throw KuraError.check(.notARealm, error.message)
        } catch {
            return try failure(error)
        }
    }

    /// A file SQLite finds malformed is a realm with an integrity problem; one that is not an SQLite
    /// database is not a realm; any other failure leaves the file unchecked.
    private func failure(_ error: any Error) throws(KuraError) -> CheckReport {
        let database = (error as? DatabaseError) ?? ((error as? KuraError)?.underlying as? DatabaseError)
        switch database?.resultCode {
        case .SQLITE_NOTADB?:
            throw KuraError.check(.notARealm, "'\(path)' is not a realm: it is not an SQLite database")
        case .SQLITE_CORRUPT?:
            let findings = FindingCollector(limit: listedPerCheck)
            findings.add(.integrity, .init(), Self.integrityLabel, FindingCollector.describe(database ?? error))
            return report(findings, layout: nil, objects: 0)
        default:
            throw KuraError.check(.unreadable, "cannot read '\(path)': \(FindingCollector.describe(database ?? error))")
        }
    }

    private static let integrityLabel = "SQLite integrity check"

    private func check(_ db: Database) throws -> CheckReport {
        let findings = FindingCollector(limit: listedPerCheck)
        guard try db.tableExists("#meta") else {
            throw KuraError.check(.notARealm, "'\(path)' is not a realm: it is an SQLite database without Kura's tables")
        }
        do {
            // A cursor keeps the lines SQLite gives before it stops on a page it cannot read.
            let lines = try String.fetchCursor(db, sql: "PRAGMA integrity_check")
            while let text = try lines.next() {
                // One result may hold several lines, under a header naming the database.
                for line in text.split(separator: "\n") where line != "ok" && !line.hasPrefix("*** ") {
                    findings.add(.integrity, .init(), Self.integrityLabel, String(line))
                }
            }
        } catch let error as DatabaseError where error.resultCode != .SQLITE_NOTADB {
            findings.add(.integrity, .init(), Self.integrityLabel, FindingCollector.describe(error))
        }
        var layout: CheckedLayout?
        findings.attempt(.init(table: "#meta"), "#meta") { layout = try LayoutCheck(db: db, findings: findings).run() }
        guard let layout else { return report(findings, layout: nil, objects: 0) }
        ValueCheck.install(in: db)
        ValueCheck(db: db, findings: findings, layout: layout).run()
        LinkCheck(db: db, findings: findings, layout: layout).run()
        EmbeddedCheck(db: db, findings: findings, layout: layout).run()
        ContainerCheck(db: db, findings: findings, layout: layout).run()
        IndexCheck(db: db, findings: findings, layout: layout).run()
        let objects = KeyCheck(db: db, findings: findings, layout: layout).run()
        return report(findings, layout: layout, objects: objects)
    }

    private func report(_ findings: FindingCollector, layout: CheckedLayout?, objects: Int) -> CheckReport {
        let (listed, total) = findings.finish()
        return CheckReport(
            path: path, findings: listed, problemCount: total, objectCount: objects,
            typeCount: layout?.schema.types.count ?? 0, schemaVersion: layout?.schema.version)
    }
}
