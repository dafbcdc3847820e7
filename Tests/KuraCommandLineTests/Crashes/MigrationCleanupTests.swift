import Foundation
import Kura
import KuraTestSupport
import Testing

/// What removals and generated keys leave in the realm: links, embedded objects, nested mixed
/// values, counters, and a layout other realms can copy from.
@Suite struct MigrationCleanupTests {
    typealias M = MigrationFixtures

    @Test func removingATypeDeletesItsObjectsAndTheMixedLinksToThem() throws {
        let (path, realm) = try M.realm("""
            schemaVersion: 1
            types:
              Note:
                properties:
                  text: string
                  refs: list<mixed>
                  about: mixed
              Draft:
                properties:
                  text: string
            """)
        try realm.write {
            let draft = try realm.create("Draft", value: ["text": "d"])
            try realm.create("Note", value: ["text": "a", "refs": [1, .object(draft.ref), 2, [.object(draft.ref), 3]], "about": .object(draft.ref)])
        }
        let notesOnly = """
            schemaVersion: 2
            types:
              Note:
                properties:
                  text: string
                  refs: list<mixed>
                  about: mixed
            """
        let plan = try Realm.migrationPlan(for: Realm.Configuration(path: path, schema: try Schema(yaml: notesOnly)))
        #expect(plan.description == "schema version 1 -> 2\nDraft: type removed, its 1 object deleted")
        try M.migrate(path, to: notesOnly)
        let migrated = try Realm(path: path)
        #expect(migrated.schema.types.map(\.name) == ["Note"])
        let note = try #require(try migrated.objects("Note").first)
        #expect(try note["refs"] == [1, 2, [3]])
        #expect(try note["about"] == .null)
        #expect(try Fixtures.problems(migrated) == [])
    }

    @Test func aTypeOthersStillLinkToCannotBeRemoved() throws {
        let (path, realm) = try M.realm(M.peopleV1)
        try M.fillPeople(realm)
        // A schema file that does so is refused when it is read, at the link…
        let yaml = M.peopleV1.replacingOccurrences(of: "schemaVersion: 1", with: "schemaVersion: 2")
            .replacingOccurrences(of: "  Dog:\n    properties:\n      name: string\n      owners: { linkingObjects: Person.pets }\n", with: "")
        #expect(throws: KuraError.schema(.unknownType, "Person.pets: unknown type 'Dog'", file: "<schema>", position: TextPosition(line: 11, column: 18))) {
            try Schema(yaml: yaml)
        }
        // …and a schema built in Swift, when the migration compares it with the realm's.
        var schema = try Schema(yaml: M.peopleV1)
        schema.version = 2
        schema.types.removeAll { $0.name == "Dog" }
        #expect(throws: KuraError.migration(.linkedTypeRemoved, "Dog: type removed, but Person.pets still links to it")) {
            try Realm.performMigration(for: Realm.Configuration(path: path, schema: schema))
        }
        #expect(try Realm(path: path).count("Dog") == 2)
    }

    @Test func droppedPropertiesTakeTheirEmbeddedObjectsAndNestedValuesWithThem() throws {
        let (path, realm) = try M.realm(M.peopleV1)
        try M.fillPeople(realm)
        let slim = """
            schemaVersion: 2
            types:
              Person:
                properties:
                  name: string
                  age: int
                  other: Address?
              Address:
                embedded: true
                properties:
                  city: string?
            """
        try M.migrate(path, to: slim)
        let migrated = try Realm(path: path)
        // The addresses the dropped `home` owned are gone, as are the nested values of `extra`.
        #expect(try migrated.count("Address") == 0)
        #expect(try Fixtures.problems(migrated) == [])
        // A new address can be set on the new property.
        try migrated.write {
            try migrated.objects("Person").first?.setValue(["city": "Bergen"], forKey: "other")
        }
        #expect(try migrated.count("Address") == 1)
        #expect(try M.values("Person", in: migrated).map { $0["name"] } == ["Alice", "Bob", "Alice", "Carol", "Bob", "Alice"])
        #expect(try M.values("Person", in: migrated).allSatisfy { $0["extra"] == nil && $0["other"] != nil })
    }

    @Test func autoIncrementKeysNumberExistingObjectsAndMoveTheCounter() throws {
        let (path, realm) = try M.realm(M.diaryV1)
        try M.fillDiary(realm, count: 5)
        try M.migrate(path, to: """
            schemaVersion: 2
            types:
              Diary:
                primaryKey: number
                properties:
                  number: { type: int, autoIncrement: true }
                  text: string
                  date: date
            """)
        let migrated = try Realm(path: path)
        #expect(try M.values("Diary", in: migrated).map { $0["number"] } == [1, 2, 3, 4, 5])
        try migrated.write { try migrated.create("Diary", value: ["text": "next", "date": .date(M.firstDate)]) }
        #expect(try migrated.objects("Diary", where: "text == 'next'").first?["number"] == 6)
        #expect(try Fixtures.problems(migrated) == [])
    }

    @Test func anExistingIntBecomesAnAutoIncrementKeyPastItsHighestValue() throws {
        let (path, realm) = try M.realm(M.peopleV1)
        try M.fillPeople(realm)
        try M.migrate(path, to: """
            schemaVersion: 2
            types:
              Person:
                primaryKey: age
                properties:
                  name: string
                  age: { type: int, autoIncrement: true }
            """)
        let migrated = try Realm(path: path)
        try migrated.write { try migrated.create("Person", value: ["name": "Dana"]) }
        #expect(try migrated.objects("Person", where: "name == 'Dana'").first?["age"] == 42)
        #expect(try migrated.object(ofType: "Person", forPrimaryKey: 31)?["name"] == "Alice")
        #expect(try Fixtures.problems(migrated) == [])
    }

    @Test func aMigratedRealmHasTheLayoutOfANewOneSoWholeRealmCopiesMatch() throws {
        let (path, realm) = try M.realm(M.peopleV1)
        try M.fillPeople(realm)
        // Columns added in the middle, renamed and removed: a copy between realms moves rows column by
        // column position when the schemas match, which only holds if the tables are laid out alike.
        let v2 = """
            schemaVersion: 2
            types:
              Person:
                properties:
                  score: { type: double, default: 1.5 }
                  fullName: { type: string, renamedFrom: name }
                  nick: string?
                  age: int
                  pets: list<Dog>
              Dog:
                properties:
                  name: string
            """
        try M.migrate(path, to: v2)
        let destination = try Fixtures.realmPath("copy.realm")
        _ = try Realm(path: destination, schema: try Schema(yaml: v2))
        let copied = try Fixtures.run(Fixtures.executable("kura"), ["copy", path, destination])
        #expect(copied.status == 0, "\(copied.stderr)")
        let source = try M.values("Person", in: try Realm(path: path))
        let copy = try Realm(path: destination)
        #expect(try M.values("Person", in: copy).map { [$0["fullName"], $0["nick"], $0["age"], $0["score"]] }
            == source.map { [$0["fullName"], $0["nick"], $0["age"], $0["score"]] })
        #expect(try M.values("Person", in: copy).map { $0["fullName"] } == ["Alice", "Bob", "Alice", "Carol", "Bob", "Alice"])
        #expect(try copy.count("Dog") == 2)
    }

    @Test func codableModelsGainAPropertyOnOpen() throws {
        struct Entry: KuraObject {
            static let typeName = "Entry"
            var text: String
        }
        struct EntryV2: KuraObject {
            static let typeName = "Entry"
            var text: String
            var mood: String?
        }
        let path = try Fixtures.realmPath()
        let first = try Realm(path: path, schema: try Schema(models: [Entry.self], version: 1))
        try first.write { _ = try first.add(Entry(text: "hello")) }
        let second = try Realm(path: path, schema: try Schema(models: [EntryV2.self], version: 2))
        #expect(try second.objects(EntryV2.self).map(\.text) == ["hello"])
        #expect(try second.objects(EntryV2.self).map(\.mood) == [nil])
        #expect(second.schema.version == 2)
    }
}
