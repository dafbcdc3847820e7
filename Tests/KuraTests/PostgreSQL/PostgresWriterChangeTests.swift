import Foundation
import KuraTestSupport
import Testing

@testable import Kura

/// What changes and deletes do to a PostgreSQL realm through `PostgresWriter`: ids and keys never
/// reused, savepoints taken back (the server's failed statements included), links undone on
/// delete, and updates.
@Suite struct PostgresWriterChangeTests {
    typealias Fixture = PostgresWriteFixture

    @Test func idsAndAutoIncrementKeysAreNeverReused() throws {
        guard PostgresTestServer.isReady() else { return }
        let realm = try Fixture(label: "ids")
        try realm.write { transaction, _ in
            for label in ["a", "b", "c"] { try Fixture.create(transaction, "Plain", ["label": .string(label)]) }
            try Fixture.delete(transaction, ObjectRef(type: "Plain", id: 3))
            #expect(try Fixture.create(transaction, "Plain", ["label": "d"]).id == 4)
            try Fixture.create(transaction, "Person", ["name": "A"])
            try Fixture.create(transaction, "Person", ["id": 10, "name": "B"])
            try Fixture.create(transaction, "Person", ["name": "C"])
        }
        try realm.write { transaction, _ in
            try Fixture.delete(transaction, ObjectRef(type: "Plain", id: 4))
            try Fixture.delete(transaction, ObjectRef(type: "Person", id: 3))
        }
        let (plain, person) = try realm.write { transaction, _ in
            (try Fixture.create(transaction, "Plain", ["label": "e"]), try Fixture.create(transaction, "Person", ["name": "D"]))
        }
        #expect(plain.id == 5 && person.id == 4)
        #expect(try realm.rows(##"SELECT "#id", "label" FROM "Plain" ORDER BY "#id""##) == [
            [.integer(1), utf8("a")], [.integer(2), utf8("b")], [.integer(5), utf8("e")],
        ])
        #expect(try realm.rows(##"SELECT "#id", "id" FROM "Person" ORDER BY "#id""##) == [
            [.integer(1), .integer(1)], [.integer(2), .integer(10)], [.integer(4), .integer(12)],
        ])
        #expect(try realm.rows(##"SELECT "name", "lastObjectId", "lastKey" FROM "#types" ORDER BY "id""##) == [
            [.text("Item"), .integer(0), .integer(0)], [.text("Person"), .integer(4), .integer(12)],
            [.text("Plain"), .integer(5), .integer(0)], [.text("Spot"), .integer(0), .integer(0)],
        ])
    }

    @Test(arguments: [false, true])
    func aFailedChangeIsRolledBackToItsSavepoint(holding: Bool) throws {
        guard PostgresTestServer.isReady() else { return }
        let realm = try Fixture(label: "savepoint")
        try realm.write { transaction, writer in
            if holding { try writer.holdInserts() }
            try Fixture.create(transaction, "Plain", ["label": "kept"])
            // The item's row, a nested person and a nested container are written before the bad element.
            let error = #expect(throws: KuraError.self) {
                try Fixture.create(transaction, "Item", [
                    "code": "gone", "count": 1, "flag": true, "ratio": 0, "small": 0, "extras": [[1, 2]],
                    "friends": [["name": "Nested"], "not a key"],
                ])
            }
            #expect(error?.code == .store(.typeMismatch))
            try Fixture.create(transaction, "Plain", ["label": "after"])
            // A trial taken back leaves nothing either.
            #expect(try transaction.tentatively {
                try Fixture.create(transaction, "Plain", ["label": "trial"])
                return false
            } == false)
        }
        #expect(try realm.rows(##"SELECT "label" FROM "Plain" ORDER BY "#id""##) == [[utf8("kept")], [utf8("after")]])
        #expect(try realm.rows(##"SELECT count(*) FROM "Item""##) == [[.integer(0)]])
        #expect(try realm.rows(##"SELECT count(*) FROM "Person""##) == [[.integer(0)]])
        #expect(try realm.rows(##"SELECT count(*) FROM "#mixed""##) == [[.integer(0)]])
        #expect(try realm.rows(##"SELECT count(*) FROM "Item.extras""##) == [[.integer(0)]])
    }

    @Test func aStatementTheServerRefusedIsTakenBackWithItsSavepoint() throws {
        guard PostgresTestServer.isReady() else { return }
        let realm = try Fixture(label: "refused")
        try realm.write { transaction, writer in
            try Fixture.create(transaction, "Plain", ["label": "one"])
            try writer.begin(.change)
            // The server refuses the row (its id is taken), which aborts the transaction up to the savepoint.
            let refused = #expect(throws: KuraError.self) {
                try realm.session.execute(##"INSERT INTO "Plain" ("#id", "label") VALUES (1, 'x')"##)
            }
            #expect(refused.map(writer.isStoreFailure) == false)
            try writer.rollBack(to: .change)
            try Fixture.create(transaction, "Plain", ["label": "two"])
            try writer.begin(.trial)
            let missing = #expect(throws: KuraError.self) { try realm.session.execute("SELECT * FROM nowhere") }
            #expect(missing.map(writer.isStoreFailure) == true)
            try writer.rollBack(to: .trial)
            #expect(writer.isStoreFailure(KuraError.store(.missingValue, "a value is missing")) == false)
        }
        #expect(try realm.rows(##"SELECT "label" FROM "Plain" ORDER BY "#id""##) == [[utf8("one")], [utf8("two")]])
    }

    @Test func deletingAnObjectUnlinksItEverywhereAndDeletesWhatItOwns() throws {
        guard PostgresTestServer.isReady() else { return }
        let realm = try Fixture(label: "unlink")
        let ann: Value = .object(ObjectRef(type: "Person", id: 1))
        let bo: Value = .object(ObjectRef(type: "Person", id: 2))
        try realm.write { transaction, _ in
            for name in ["Ann", "Bo"] { try Fixture.create(transaction, "Person", ["name": .string(name)]) }
            try Fixture.create(transaction, "Person", ["name": "Cy", "pals": [1, 2], "byName": ["a": 1, "b": 2]])
            try Fixture.create(transaction, "Item", [
                "code": "i", "count": 1, "flag": true, "ratio": 0, "small": 0, "owner": 1, "friends": [2, 1, 2, 1],
                "any": ann, "extras": [ann, "x", ann, bo, [ann, "y"]], "bag": ["p": ann, "q": 7], "things": [ann, "t"],
                "spot": ["x": 1, "near": [["x": 2]]],
            ])
        }
        try realm.write { transaction, _ in try Fixture.delete(transaction, ObjectRef(type: "Person", id: 1)) }
        #expect(try realm.rows(##"SELECT "owner", "any", "any#type" FROM "Item""##) == [[.null, .null, .integer(MixedTag.null)]])
        #expect(try realm.rows(##"SELECT "#pos", "#value" FROM "Item.friends" ORDER BY "#pos""##) == [
            [.integer(0), .integer(2)], [.integer(1), .integer(2)],
        ])
        let personTag = MixedTag.linkBase + (try realm.catalog.typeId("Person"))
        let extras = try realm.rows(##"SELECT "#pos", "#type", "#value" FROM "Item.extras" ORDER BY "#pos""##)
        #expect(extras.count == 3)
        #expect(extras.prefix(2).map { $0 } == [
            [.integer(0), .integer(MixedTag.string), utf8("x")], [.integer(1), .integer(personTag), utf8("2")],
        ])
        #expect(try realm.rows(##"SELECT "#pos", "#type", "#value" FROM "#mixed""##) == [[.integer(0), .integer(MixedTag.string), utf8("y")]])
        #expect(try realm.rows(##"SELECT "#key" FROM "Item.bag""##) == [[utf8("q")]])
        #expect(try realm.rows(##"SELECT "#value" FROM "Item.things""##) == [[utf8("t")]])
        #expect(try realm.rows(##"SELECT "#value" FROM "Person.pals""##) == [[.integer(2)]])
        #expect(try realm.rows(##"SELECT "#key" FROM "Person.byName""##) == [[utf8("b")]])
        // The item takes its collections, nested containers and embedded objects with it.
        try realm.write { transaction, _ in try Fixture.delete(transaction, ObjectRef(type: "Item", id: 1)) }
        for table in ["Item", "Item.friends", "Item.extras", "Item.bag", "Item.things", "#mixed", "Spot", "Spot.near"] {
            #expect(try realm.rows("SELECT count(*) FROM \(TableLayout.quote(table))") == [[.integer(0)]], "\(table)")
        }
        #expect(try realm.rows(##"SELECT count(*) FROM "Person""##) == [[.integer(2)]])
    }

    @Test func relinkMovesEveryLinkAndTheScanReadsStoredRows() throws {
        guard PostgresTestServer.isReady() else { return }
        let realm = try Fixture(label: "relink")
        let ann: Value = .object(ObjectRef(type: "Person", id: 1))
        try realm.write { transaction, writer in
            for name in ["Ann\u{0}", "Bo"] { try Fixture.create(transaction, "Person", ["name": .string(name)]) }
            try Fixture.create(transaction, "Person", ["name": "Cy", "pals": [1], "byName": ["a": 1]])
            try Fixture.create(transaction, "Item", [
                "code": "i", "count": 1, "flag": true, "ratio": 0, "small": 0, "owner": 1, "friends": [1], "any": ann, "extras": [[ann]],
            ])
            try writer.relink(from: ObjectRef(type: "Person", id: 1), to: ObjectRef(type: "Person", id: 2))
            var scanned: [(Int64, StoredCell)] = []
            let person = try realm.catalog.storedType("Person")
            let name = try #require(person.columns.first { $0.name == "name" })
            try writer.forEachRow(of: person, columns: [name], idAtMost: 2) { id, value in scanned.append((id, value(0))) }
            #expect(scanned.map(\.0) == [1, 2] && scanned.map(\.1) == [.text("Ann\u{0}"), .text("Bo")])
        }
        #expect(try realm.rows(##"SELECT "owner", "any" FROM "Item""##) == [[.integer(2), utf8("2")]])
        #expect(try realm.rows(##"SELECT "#value" FROM "Item.friends""##) == [[.integer(2)]])
        #expect(try realm.rows(##"SELECT "#value" FROM "Person.pals" UNION ALL SELECT "#value" FROM "Person.byName""##) == [
            [.integer(2)], [.integer(2)],
        ])
        #expect(try realm.rows(##"SELECT "#value" FROM "#mixed""##) == [[utf8("2")]])
    }

    @Test func updatesWriteOnlyWhatChangedAndNoteModifiedObjects() throws {
        guard PostgresTestServer.isReady() else { return }
        let realm = try Fixture(label: "update")
        try realm.write { transaction, _ in
            try Fixture.create(transaction, "Item", [
                "code": "u", "count": 1, "flag": true, "ratio": 0, "small": 0, "price": .decimal(try #require(Decimal128("1.0"))),
                "tags": ["a"], "any": ["n": [1]],
            ])
        }
        try realm.write { transaction, writer in
            // A decimal equal in value is left as written under `modified`.
            try Fixture.create(transaction, "Item", ["code": "u", "price": .decimal(try #require(Decimal128("1.00")))], policy: .modified)
            #expect(transaction.counts["Item"]?.unchanged == 1)
            #expect(writer.modifiedObjects.isEmpty)
            try Fixture.create(
                transaction, "Item", ["code": "u", "note": "n\u{0}", "tags": ["a", "b"], "any": ["n": [2]]], policy: .modified)
            #expect(transaction.counts["Item"]?.updated == 1)
            #expect(writer.modifiedObjects == [ObjectRef(type: "Item", id: 1)])
        }
        #expect(try realm.rows(##"SELECT "price", "note", "any#type" FROM "Item""##) == [[utf8("1.0"), utf8("n\u{0}"), .integer(MixedTag.map)]])
        #expect(try realm.rows(##"SELECT "#value" FROM "Item.tags" ORDER BY "#pos""##) == [[utf8("a")], [utf8("b")]])
        // The old nested map and list are gone; the new ones hold 2.
        let entries = try realm.rows(##"SELECT "#key", "#type", "#value" FROM "#mixed" ORDER BY "#container""##)
        #expect(entries.count == 2)
        #expect(entries.last == [.null, .integer(MixedTag.int), utf8("2")])
        #expect(try realm.rows(##"SELECT "value" FROM "#meta" WHERE "key" = 'lastMixedContainer'"##) == [[.text("4")]])
    }
}
