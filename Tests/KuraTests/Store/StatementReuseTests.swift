import Foundation
import GRDB
import GRDBSQLite
import KuraTestSupport
import Testing

// @testable to count, on the realm's own connection, how often SQLite compiled its statements again.
@testable import Kura

/// A realm kept open for many reads (the service's read pool, an app's realm) compiles each
/// statement once: a read must not expire the connection's prepared statements (as toggling
/// `PRAGMA query_only` does), and no statement may bind a value the planner matched against a
/// partial index (which makes SQLite compile it again at every bind).
@Suite struct StatementReuseTests {
    let folder: URL
    let realm: Realm

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        realm = try Realm(path: try GraphFixture.makeRealm(in: folder).realm)
    }

    /// What a keyed GET does: refresh, find the object by key, export its document.
    func readOwner(_ key: Int) throws -> String {
        try realm.refresh()
        let owner = try #require(try realm.object(ofType: "Owner", forPrimaryKey: .int(Int64(key))))
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: realm.schema, format: .jsonl, output: output)
        var options = ExportOptions(type: "Owner")
        options.objectIds = [owner.ref.id]
        _ = try RealmExporter(realm: realm, options: options).run(to: writer)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// The connection's prepared statements, and how many times SQLite compiled them again in all.
    func recompilations() throws -> (statements: Int, recompiled: Int32) {
        try #require(realm.connection as? Kura.SQLiteConnection).queue.inDatabase { db in
            var statements = 0
            var recompiled: Int32 = 0
            var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
            while let current = statement {
                statements += 1
                recompiled += sqlite3_stmt_status(current, SQLITE_STMTSTATUS_REPREPARE, 0)
                statement = sqlite3_next_stmt(db.sqliteConnection, current)
            }
            return (statements, recompiled)
        }
    }

    @Test func keyedReadsCompileTheirStatementsOnce() throws {
        let first = try readOwner(1)
        #expect(first.contains(#""name":"Ann""#))
        let before = try recompilations()
        #expect(before.statements > 5)
        for key in [2, 1, 3, 2] { _ = try readOwner(key) }
        #expect(try readOwner(1) == first)
        let after = try recompilations()
        #expect(after.statements == before.statements)
        #expect(after.recompiled == before.recompiled)
    }

    @Test func queriesBetweenReadsLeaveTheCompiledStatements() throws {
        _ = try readOwner(2)
        let before = try recompilations()
        for _ in 0..<3 {
            #expect(try realm.count("Owner", where: "name != 'Gone'") == 2)
            #expect(try realm.objects("Owner", where: "rival.name == 'Ann'").count == 1)
            _ = try readOwner(2)
        }
        #expect(try recompilations().recompiled == before.recompiled)
    }
}
