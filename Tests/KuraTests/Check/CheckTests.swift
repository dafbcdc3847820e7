import Foundation
import GRDB
import Kura
import KuraTestSupport
import Testing

/// `RealmChecker` on healthy realms after the operations that must keep them healthy (deletion and
/// copy here; migrations in MigrationCleanupTests), on a realm another connection is writing, on
/// files that are not realms or are damaged, and never writing to the file it checks.
@Suite struct CheckTests {
    let folder: URL
    let graph: String

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        (graph, _) = try GraphFixture.makeRealm(in: folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func problems(_ path: String) throws -> [String] { try RealmChecker(path: path).check().messages }

    @Test func checkingNeverChangesTheFile() throws {
        let before = try MigrationFixtures.bytes(graph)
        #expect(try RealmChecker(path: graph).check().isHealthy)
        #expect(try MigrationFixtures.bytes(graph) == before)
        // A broken realm too: the checker reports, it does not mend.
        let queue = try DatabaseQueue(path: graph)
        try queue.write { db in try db.execute(sql: #"UPDATE "Node" SET "next" = 999 WHERE "name" = 'self'"#) }
        try queue.close()
        let broken = try MigrationFixtures.bytes(graph)
        #expect(try problems(graph) == ["Node.next: object 2 links to Node 999, which does not exist"])
        #expect(try MigrationFixtures.bytes(graph) == broken)
    }

    @Test func deletionsKeepTheRealmHealthy() throws {
        let realm = try Realm(path: graph)
        // The shared node (in lists, a map and a mixed value), the node owning an embedded spot and
        // nested mixed containers, a keyed owner others link to, and part of the chain.
        let deleted = try realm.write {
            [try realm.delete("Node", where: "name IN {'s', 'lonely', 'inMixed'} OR name BEGINSWITH 'chain1'"),
             try realm.delete("Owner", where: "id == 2")]
        }
        #expect(deleted == [14, 1])
        #expect(try problems(graph) == [])
        #expect(try RealmChecker(path: graph).check().objectCount == 111 - 14 - 2 - 1)
    }

    @Test func copiesAreHealthy() throws {
        let source = try Realm(path: graph)
        let whole = try Realm(path: path("whole.realm"), schema: source.schema)
        _ = try RealmCopier(source: source, destination: whole).run()
        let owners = try Realm(path: path("owners.realm"), schema: source.schema)
        _ = try RealmCopier(source: source, destination: owners, options: CopyOptions(type: "Owner", predicate: "id == 1")).run()
        #expect(try problems(path("whole.realm")) == [])
        #expect(try problems(path("owners.realm")) == [])
    }

    @Test func aRealmOpenForWritingIsCheckedAsCommitted() throws {
        let realm = try Realm(path: graph)
        try realm.write { try realm.create("Owner", value: ["name": "New", "seen": [1, 2]]) }
        // The realm stays open: its last transaction is in the WAL file, not yet in the realm file.
        let before = try MigrationFixtures.bytes(graph)
        let report = try RealmChecker(path: graph).check()
        #expect(report.messages == [])
        #expect(report.objectCount == 112)
        #expect(try MigrationFixtures.bytes(graph) == before)
        try realm.write { try realm.create("Owner", value: ["name": "Newer"]) }
        #expect(try RealmChecker(path: graph).check().objectCount == 113)
    }

    @Test func filesThatAreNotRealms() throws {
        let missing = path("none.realm")
        #expect(throws: KuraError.check(.fileMissing, "no realm at '\(missing)'")) { try RealmChecker(path: missing).check() }
        let text = path("people.json")
        try "[]".write(toFile: text, atomically: true, encoding: .utf8)
        #expect(throws: KuraError.check(.notARealm, "'\(text)' is not a realm: it is not an SQLite database")) {
            try RealmChecker(path: text).check()
        }
        let empty = path("empty.realm")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(throws: KuraError.check(.notARealm, "'\(empty)' is not a realm: the file is empty")) { try RealmChecker(path: empty).check() }
        let plain = path("plain.db")
        try DatabaseQueue(path: plain).write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        #expect(throws: KuraError.check(.notARealm, "'\(plain)' is not a realm: it is an SQLite database without Kura's tables")) {
            try RealmChecker(path: plain).check()
        }
        #expect(throws: KuraError.check(.notARealm, "'\(folder.path)' is a folder, not a realm")) { try RealmChecker(path: folder.path).check() }
    }

    @Test func aDamagedFileIsReportedNotTrapped() throws {
        let (root, size) = try DatabaseQueue(path: graph).read { db in
            (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'Node.peers'"),
             try Int.fetchOne(db, sql: "PRAGMA page_size"))
        }
        let page = try #require(root)
        let pageSize = try #require(size)
        // The page's header becomes garbage: SQLite can no longer read the table.
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: graph))
        try file.seek(toOffset: UInt64((page - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xFF, count: 16))
        try file.close()
        let report = try RealmChecker(path: graph).check()
        #expect(report.messages == [
            "SQLite integrity check: Page \(page): btreeInitPage() returns error code 11",
            "SQLite integrity check: SQLite error 11: database disk image is malformed",
            "Node.peers: cannot be checked: SQLite error 11: database disk image is malformed",
        ])
        #expect(report.findings.map(\.kind) == [.integrity, .integrity, .unreadable])
    }

    @Test func aReportRoundTripsThroughJSON() throws {
        try DatabaseQueue(path: graph).write { db in try db.execute(sql: #"UPDATE "Node" SET "spot" = NULL WHERE "name" = 'lonely'"#) }
        let report = try RealmChecker(path: graph).check()
        let data = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(CheckReport.self, from: data) == report)
        #expect(report.findings == [
            CheckFinding(.orphanEmbedded, at: .init(type: "Spot", objectId: 1, table: "Spot"), "Spot: object 1 is embedded, but no object owns it"),
            CheckFinding(
                .orphanEmbedded, at: .init(type: "Spot", objectId: 2, table: "Spot"),
                "Spot: object 2 is embedded below Spot 1, which no object owns"),
        ])
    }
}
