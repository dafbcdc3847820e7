import Foundation
import GRDB

/// Checks a realm in an SQLite file: SQLite's `PRAGMA integrity_check`, then Kura's invariants
/// (`LayoutCheck`, `ValueCheck`, `LinkCheck`, `EmbeddedCheck`, `ContainerCheck`, `IndexCheck`,
/// `KeyCheck`), all in one read transaction on a read-only connection. Whether a failure means the
/// file is not a realm, is damaged, or cannot be read is told from SQLite's result codes.
struct SQLiteStorageChecker: StorageChecking {
    /// The realm file.
    let path: String
    /// How long to wait for a lock another process holds, in seconds.
    let busyTimeout: TimeInterval

    func check(listedPerCheck: Int) throws(KuraError) -> StorageCheckResult {
        do {
            // Read-only as a realm handle reads, so that checking leaves the file as reading does.
            let connection = try ReadOnlyConnection(path: path, busyTimeout: busyTimeout)
            defer { connection.close() }
            return try connection.queue.inDatabase { db in
                // One snapshot for every query. Ended by a rollback, whose failure does not matter
                // (nothing was written), where a commit would fail on a file SQLite found malformed.
                try db.execute(sql: "BEGIN DEFERRED TRANSACTION")
                defer { try? db.execute(sql: "ROLLBACK TRANSACTION") }
                return try check(db, listedPerCheck: listedPerCheck)
            }
        } catch let error as KuraError where error.code.domain == .check {
            throw error
        } catch let error as KuraError where error.code == .store(.notARealm) {
            throw KuraError.check(.notARealm, error.message)
        } catch {
            return try failure(error, listedPerCheck: listedPerCheck)
        }
    }

    /// A file SQLite finds malformed is a realm with an integrity problem; one that is not an SQLite
    /// database is not a realm; any other failure leaves the file unchecked.
    private func failure(_ error: any Error, listedPerCheck: Int) throws(KuraError) -> StorageCheckResult {
        let database = (error as? DatabaseError) ?? ((error as? KuraError)?.underlying as? DatabaseError)
        switch database?.resultCode {
        case .SQLITE_NOTADB?:
            throw KuraError.check(.notARealm, "'\(path)' is not a realm: it is not an SQLite database")
        case .SQLITE_CORRUPT?:
            let findings = Self.collector(listedPerCheck)
            findings.add(.integrity, .init(), Self.integrityLabel, Self.describe(database ?? error))
            return result(findings, layout: nil, objects: 0)
        default:
            throw KuraError.check(.unreadable, "cannot read '\(path)': \(Self.describe(database ?? error))")
        }
    }

    private static let integrityLabel = "SQLite integrity check"

    private func check(_ db: Database, listedPerCheck: Int) throws -> StorageCheckResult {
        let findings = Self.collector(listedPerCheck)
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
            findings.add(.integrity, .init(), Self.integrityLabel, Self.describe(error))
        }
        var layout: CheckedLayout?
        findings.attempt(.init(table: "#meta"), "#meta") { layout = try LayoutCheck(db: db, findings: findings).run() }
        guard let layout else { return result(findings, layout: nil, objects: 0) }
        ValueCheck.install(in: db)
        ValueCheck(db: db, findings: findings, layout: layout).run()
        LinkCheck(db: db, findings: findings, layout: layout).run()
        EmbeddedCheck(db: db, findings: findings, layout: layout).run()
        ContainerCheck(db: db, findings: findings, layout: layout).run()
        IndexCheck(db: db, findings: findings, layout: layout).run()
        let objects = KeyCheck(db: db, findings: findings, layout: layout).run()
        return result(findings, layout: layout, objects: objects)
    }

    private func result(_ findings: FindingCollector, layout: CheckedLayout?, objects: Int) -> StorageCheckResult {
        let (listed, total) = findings.finish()
        return StorageCheckResult(findings: listed, problemCount: total, objectCount: objects, schema: layout?.schema)
    }

    /// A collector whose unreadable findings describe SQLite's errors as SQLite does.
    private static func collector(_ listedPerCheck: Int) -> FindingCollector {
        FindingCollector(limit: listedPerCheck, describing: describe)
    }

    /// An error as one line: SQLite's message for database errors.
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")"
        }
        return "\(error)"
    }
}
