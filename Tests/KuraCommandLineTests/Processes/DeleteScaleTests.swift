import Foundation
import GRDB
import KuraTestSupport
import Testing

// @testable for the statements the deleter runs, whose query plans are checked.
@testable import Kura

/// Deleting an object finds the mixed values that link to it through an index, so deleting N
/// objects costs N lookups per place mixed values are stored, never N scans of every such row.
@Suite struct DeleteScaleTests {
    static let schema = """
        types:
          Thing:
            primaryKey: code
            properties:
              code: int
              any: mixed
              anyList: list<mixed>
              anySet: set<mixed>
              anyMap: map<mixed>
              part: Part?
          Part:
            embedded: true
            properties:
              label: string
              any: mixed
        """

    /// Things 1...count, each linking the one before it from every kind of mixed place, nested
    /// containers included.
    func seededRealm(count: Int) throws -> (realm: Realm, path: String) {
        let path = try Fixtures.realmPath()
        let realm = try Realm(path: path, schema: try Schema(yaml: Self.schema))
        try realm.write {
            for code in 1...count {
                var fields: [String: Value] = ["code": .int(Int64(code)), "part": ["label": "p", "any": 1]]
                if code > 1, let previous = try realm.object(ofType: "Thing", forPrimaryKey: .int(Int64(code - 1))) {
                    let link = Value.object(previous.ref)
                    fields["any"] = ["nested": [link, 2]]
                    fields["anyList"] = [link, "x", link]
                    fields["anySet"] = [link, 3]
                    fields["anyMap"] = ["k": link]
                }
                try realm.create("Thing", value: .map(fields))
            }
        }
        return (realm, path)
    }

    /// The plan of each statement that unlinks an object from mixed values: every one searches an
    /// index, none scans its table.
    @Test func unlinkingFromMixedValuesSearchesAnIndex() throws {
        let (realm, path) = try seededRealm(count: 3)
        let statements = MixedLinkStatement.all(realm.catalog, matchingId: true)
        // One mixed property on each type, three mixed collections, and the nested containers.
        #expect(statements.count == 6)
        let typeTag = MixedTag.linkBase + (try #require(realm.catalog.typeIds["Thing"]))
        let plans = try DatabaseQueue(path: path).read { db in
            try statements.map { statement in
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN SELECT 1 FROM \(statement.table) WHERE \(statement.match)",
                    arguments: [typeTag, 1]
                ).map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
            }
        }
        for (statement, plan) in zip(statements, plans) {
            #expect(plan.hasPrefix("SEARCH ") && plan.contains("#link"), "\(statement.table): \(plan)")
        }
    }

    /// The deletion the indexes serve still unlinks every kind of mixed place, and a realm made with
    /// them passes `kura check`'s index check.
    @Test func deletingStillUnlinksEveryMixedPlace() throws {
        let (realm, _) = try seededRealm(count: 4)
        let deleted = try realm.write { try realm.delete("Thing", where: "code IN {1, 3}") }
        #expect(deleted == 2)
        try Self.expectCodes1And3Unlinked(realm)
        #expect(try Fixtures.problems(realm) == [])
    }

    /// Under the savepoint of `delete(_:where:)`, SQLite's statement journal makes every UPDATE that
    /// may abort on several rows cost a walk of all the pages the delete journaled so far; so the
    /// deleter sets a mixed property that links a deleted object to null one row at a time, by id.
    @Test func unlinkingAMixedPropertyUpdatesOneRowById() throws {
        let path = try Fixtures.realmPath()
        let realm = try Realm(path: path, schema: try Schema(yaml: Self.schema))
        try realm.write {
            let target = try realm.create("Thing", value: ["code": 1])
            for code in 2...3 { try realm.create("Thing", value: ["code": .int(Int64(code)), "any": .object(target.ref)]) }
        }
        final class Log: @unchecked Sendable { var statements: [String] = [] }
        let log = Log()
        try realm.write {
            let db = try #require(realm.requireTransaction().storage as? SQLiteWriter).db
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { log.statements.append(statement.sql) }
            }
            defer { db.trace(options: [], nil) }
            #expect(try realm.delete("Thing", where: "code == 1") == 1)
        }
        let updates = log.statements.filter { $0.hasPrefix("UPDATE") && $0.contains("\"any#type\" = ") }
        #expect(updates.count == 2)
        for update in updates { #expect(update.hasSuffix("WHERE \"#id\" = ?"), "\(update)") }
        for code in 2...3 {
            let thing = try #require(try realm.object(ofType: "Thing", forPrimaryKey: .int(Int64(code))))
            #expect(try thing["any"] == nil)
        }
    }

    /// The link indexes of the realm at `path`, by name.
    static func linkIndexes(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%#link' ORDER BY name")
        }
    }

    /// Drops the link indexes of the realm at `path`, as a realm made before them lacks them.
    static func dropLinkIndexes(_ path: String) throws {
        try DatabaseQueue(path: path).write { db in
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%#link'") {
                try db.execute(sql: "DROP INDEX \(TableLayout.quote(name))")
            }
        }
    }

    /// A realm made before the link indexes existed is sound without them: `kura check` finds
    /// nothing, and deleting still unlinks every mixed value.
    @Test func aRealmWithoutLinkIndexesChecksCleanAndStillUnlinks() throws {
        let (_, path) = try seededRealm(count: 3)
        try Self.dropLinkIndexes(path)
        let realm = try Realm(configuration: Realm.Configuration(path: path, readOnly: true))
        #expect(try Fixtures.problems(realm) == [])
        #expect(try Self.linkIndexes(path) == [])
    }

    /// A realm without the link indexes gets them back when it is opened for writing, in the
    /// open's own transaction; opened read-only it is left as it is. Either way `kura check` is
    /// clean, and `kura delete` unlinks every mixed value.
    @Test func openingForWritingAddsTheMissingLinkIndexes() throws {
        let (_, path) = try seededRealm(count: 4)
        let made = try Self.linkIndexes(path)
        #expect(made == ["#mixed#link", "Part.any#link", "Thing.any#link", "Thing.anyList#link", "Thing.anyMap#link", "Thing.anySet#link"])
        try Self.dropLinkIndexes(path)

        let kura = Fixtures.executable("kura")
        let export = try Fixtures.run(kura, ["export", path, "--output", path + ".json"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try Self.linkIndexes(path) == [])

        let reopened = try Realm(path: path)
        #expect(try Self.linkIndexes(path) == made)
        #expect(try Fixtures.problems(reopened) == [])
        // Present: opening again changes nothing, not even the schema cookie.
        let cookie = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
        _ = try Realm(path: path)
        #expect(try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") } == cookie)

        try Self.dropLinkIndexes(path)
        let deleted = try Fixtures.run(kura, ["delete", path, "--type", "Thing", "--where", "code IN {1, 3}"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "Thing: 2 deleted\n")
        #expect(try Self.linkIndexes(path) == made)
        let check = try Fixtures.run(kura, ["check", path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let realm = try Realm(path: path)
        try Self.expectCodes1And3Unlinked(realm)
    }

    /// After deleting codes 1 and 3 of `seededRealm(count: 4)`: every mixed place of the two left
    /// that linked a deleted object no longer does.
    private static func expectCodes1And3Unlinked(_ realm: Realm) throws {
        let four = try #require(try realm.object(ofType: "Thing", forPrimaryKey: 4))
        #expect(try four["any"] == ["nested": [2]])
        #expect(try four["anyList"] == ["x"])
        #expect(try four["anySet"] == [3])
        #expect(try four["anyMap"] == [:])
        let two = try #require(try realm.object(ofType: "Thing", forPrimaryKey: 2))
        #expect(try two["any"] == ["nested": [2]])
        #expect(try realm.count("Thing") == 2)
    }
}
