import Foundation
import Kura
import KuraTestSupport
import Testing

/// Migrations through the library on realms of both engines: primary keys added to existing objects, renames,
/// removals, defaults, and the precise refusals.
@Suite struct MigrationTests {
    typealias M = MigrationFixtures

    @Test(arguments: RealmEngine.tested) func aThousandDiaryEntriesGetDistinctUUIDKeysAndKeepTheirTextsAndDates(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.diaryV1, on: engine)
        try M.fillDiary(realm, count: 1000)
        let before = try M.values("Diary", in: realm)
        let v2 = try Schema(yaml: M.diaryV2)
        #expect(throws: KuraError.store(.schemaMismatch, "Diary.id: primary key added: needs a migration")) {
            try Realm(path: path, schema: v2)
        }

        try Realm.performMigration(for: Realm.Configuration(path: path, schema: v2))
        let migrated = try Realm(path: path)
        #expect(migrated.schema == v2)
        let after = try M.values("Diary", in: migrated)
        #expect(after.count == 1000)
        var ids = Set<UUID>()
        for (old, new) in zip(before, after) {
            guard case .uuid(let id)? = new["id"] else {
                Issue.record("no uuid key in \(new)")
                continue
            }
            ids.insert(id)
            #expect(new["text"] == old["text"] && new["date"] == old["date"])
        }
        #expect(ids.count == 1000)
        // The key is a key: found by value, unique, generated for new entries.
        let some = try #require(ids.first)
        #expect(try migrated.object(ofType: "Diary", forPrimaryKey: .uuid(some)) != nil)
        expectKuraError(.store) {
            try migrated.write { try migrated.create("Diary", value: ["id": .uuid(some), "text": "again", "date": .date(M.firstDate)]) }
        }
        try migrated.write { try migrated.create("Diary", value: ["text": "new", "date": .date(M.firstDate)]) }
        #expect(try migrated.count("Diary") == 1001)
    }

    @Test(arguments: RealmEngine.tested) func makingADuplicatedPropertyTheKeyListsTheDuplicatesAndChangesNothing(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.peopleV1, on: engine)
        try M.fillPeople(realm)
        let stored = try M.storedState(path, on: engine)
        let keyed = M.peopleByName
        let expected = KuraError.migration(
            .duplicateKeys,
            #"Person.name: cannot be the primary key: 2 values are held by more than one object: "Alice" (3 objects), "Bob" (2 objects)"#)
        #expect(throws: expected) { try M.migrate(path, to: keyed) }
        do {
            try M.migrate(path, to: keyed)
        } catch let error as KuraError {
            #expect(error.duplicates == [.init(value: "Alice", count: 3), .init(value: "Bob", count: 2)])
        }
        let plan = try Realm.migrationPlan(for: Realm.Configuration(path: path, schema: try Schema(yaml: keyed)))
        #expect(plan.problems == [expected])
        #expect(try M.storedState(path, on: engine) == stored)
        let reopened = try Realm(path: path)
        #expect(reopened.schema.version == 1 && reopened.schema[type: "Person"]?.primaryKey == nil)
        #expect(try reopened.count("Person") == 6)
    }

    @Test(arguments: RealmEngine.tested) func renamedPropertiesKeepEveryValueAndBacklinksFollowThem(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.peopleV1, on: engine)
        try M.fillPeople(realm)
        let before = try M.values("Person", in: realm)
        let renamed = """
            schemaVersion: 2
            types:
              Person:
                properties:
                  fullName: { type: string, renamedFrom: name }
                  age: int
                  nick: string?
                  labels: { type: "list<string>", renamedFrom: tags }
                  payload: { type: mixed, renamedFrom: extra }
                  address: { type: Address?, renamedFrom: home }
                  dogs: { type: "list<Dog>", renamedFrom: pets }
              Dog:
                properties:
                  name: string
                  owners: { linkingObjects: Person.dogs }
              Address:
                embedded: true
                properties:
                  town: { type: string?, renamedFrom: city }
            """
        #expect(throws: KuraError.store(.schemaMismatch, "Person.fullName: renamed from name: needs a migration")) {
            try Realm(path: path, schema: try Schema(yaml: renamed))
        }
        try M.migrate(path, to: renamed)
        let migrated = try Realm(path: path)
        let names = ["name": "fullName", "tags": "labels", "extra": "payload", "home": "address", "pets": "dogs"]
        let after = try M.values("Person", in: migrated)
        #expect(after == before.map { object in
            Dictionary(uniqueKeysWithValues: object.map { (names[$0.key] ?? $0.key, $0.value) })
        })
        let rex = try #require(try migrated.objects("Dog", where: "name == 'Rex'").first)
        #expect(try rex.linkingObjects("owners").count == 2)
        #expect(try M.values("Address", in: migrated).map { $0["town"] } == ["Oslo", "Rome"])
        #expect(try migrated.objects("Person", where: "address.town == 'Rome'").first?["payload"] == .object(rex.ref))
        // Opening with the same schema again is a no-op: renamedFrom names a property that is gone.
        _ = try Realm(path: path, schema: try Schema(yaml: renamed))
    }

    @Test(arguments: RealmEngine.tested) func additiveChangesApplyOnOpenAndFillExistingObjects(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.diaryV1, on: engine)
        try M.fillDiary(realm, count: 3)
        let grown = """
            schemaVersion: 2
            types:
              Diary:
                properties:
                  text: { type: string, indexed: true }
                  date: date
                  mood: string?
                  stars: { type: int, default: 3 }
                  tags: set<string>
                  ref: { type: uuid, default: uuid }
                  seen: { type: date, default: now }
              Tag:
                properties:
                  name: string
            """
        let opened = try Realm(path: path, schema: try Schema(yaml: grown))
        #expect(opened.schema.version == 2)
        let entries = try M.values("Diary", in: opened)
        #expect(entries.map { $0["mood"] } == [.null, .null, .null])
        #expect(entries.map { $0["stars"] } == [3, 3, 3])
        #expect(entries.map { $0["tags"] } == [[], [], []])
        #expect(Set(entries.compactMap { $0["ref"] }).count == 3)
        #expect(entries.allSatisfy { if case .date = $0["seen"] { true } else { false } })
        #expect(entries.map { $0["text"] } == ["entry 0", "entry 1", "entry 2"])
        try opened.write { try opened.create("Tag", value: ["name": "work"]) }
        #expect(try Realm(path: path).schema.version == 2)
    }

    @Test(arguments: RealmEngine.tested) func everyOtherChangeIsReportedPreciselyOnOpen(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.peopleV1, on: engine)
        try M.fillPeople(realm)
        func refusal(_ edit: (String) -> String) throws -> String {
            let yaml = edit(M.peopleV1).replacingOccurrences(of: "schemaVersion: 1", with: "schemaVersion: 2")
            do {
                _ = try Realm(path: path, schema: try Schema(yaml: yaml))
                return "opened"
            } catch let error as KuraError {
                return error.message
            }
        }
        #expect(try refusal { $0.replacingOccurrences(of: "      age: int\n", with: "") } == "Person.age: property removed: needs a migration")
        #expect(try refusal { $0.replacingOccurrences(of: "age: int", with: "age: string") }
            == "Person.age: type changed from int to string: needs a migration")
        #expect(try refusal { $0.replacingOccurrences(of: "nick: string?", with: "nick: string") }
            == "Person.nick: optional to required: needs a migration")
        #expect(try refusal { $0.replacingOccurrences(of: "name: string\n      age", with: "name: string?\n      age") }
            == "Person.name: required to optional: needs a migration")
        #expect(try refusal { $0.replacingOccurrences(of: "      age: int\n", with: "      age: int\n      email: string\n") }
            == "Person.email: required property added: needs a migration")
        #expect(try refusal { $0.replacingOccurrences(of: "  Dog:\n    properties:", with: "  Dog:\n    primaryKey: name\n    properties:") }
            == "Dog.name: primary key added: needs a migration")
        // Still version 1 with its data: each refusal rolled back.
        let reopened = try Realm(path: path)
        #expect(reopened.schema.version == 1)
        #expect(try reopened.count("Person") == 6)
    }

    @Test(arguments: RealmEngine.tested) func versionsMustRiseForMigrationsAndNeverFall(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.diaryV1.replacingOccurrences(of: "schemaVersion: 1", with: "schemaVersion: 3"), on: engine)
        try M.fillDiary(realm, count: 2)
        let lower = M.diaryV2.replacingOccurrences(of: "schemaVersion: 2", with: "schemaVersion: 1")
        #expect(throws: KuraError.store(.schemaVersionTooLow, "schema version 1 is lower than the realm's version 3")) {
            try M.migrate(path, to: lower)
        }
        let same = M.diaryV2.replacingOccurrences(of: "schemaVersion: 2", with: "schemaVersion: 3")
        #expect(throws: KuraError.migration(.versionNotBumped, "Diary.id: primary key added: bump schemaVersion above 3 to migrate")) {
            try M.migrate(path, to: same)
        }
        #expect(try Realm(path: path).schema.version == 3)
        switch engine {
        case .sqlite:
            let missing = path + ".none"
            #expect(throws: KuraError.store(.openFailed, "no realm file at '\(missing)' to migrate")) {
                try Realm.migrationPlan(for: Realm.Configuration(path: missing, schema: try Schema(yaml: M.diaryV2)))
            }
            #expect(!FileManager.default.fileExists(atPath: missing))
        case .postgres:
            // A plan of a schema that holds no realm is refused, and reading it made no schema.
            let missing = try engine.freshRealm("missing")
            let schema = try #require(M.postgresSchema(missing))
            expectKuraError(.store) {
                try Realm.migrationPlan(for: Realm.Configuration(path: missing, schema: try Schema(yaml: M.diaryV2)))
            }
            #expect(try PostgresTestServer.psql("SELECT count(*) FROM pg_namespace WHERE nspname = '\(schema)'") == "0")
        }
    }

    @Test(arguments: RealmEngine.tested) func requiredValuesNeedDefaults(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.peopleV1, on: engine)
        try M.fillPeople(realm)
        let required = M.peopleV1.replacingOccurrences(of: "schemaVersion: 1", with: "schemaVersion: 2")
            .replacingOccurrences(of: "nick: string?", with: "nick: string")
        #expect(throws: KuraError.migration(.missingValues, "Person.nick: optional to required: needs a default for the 5 objects holding null")) {
            try M.migrate(path, to: required)
        }
        let added = M.peopleV1.replacingOccurrences(of: "schemaVersion: 1", with: "schemaVersion: 2")
            .replacingOccurrences(of: "      age: int\n", with: "      age: int\n      email: string\n")
        #expect(throws: KuraError.migration(.missingValues, "Person.email: required property added: needs a default for the 6 existing objects")) {
            try M.migrate(path, to: added)
        }
        let defaulted = required.replacingOccurrences(of: "nick: string", with: "nick: { type: string, default: \"none\" }")
        try M.migrate(path, to: defaulted)
        let nicks = try M.values("Person", in: try Realm(path: path)).map { $0["nick"] }
        #expect(nicks == ["none", "bobby", "none", "none", "none", "none"])
    }

    @Test(arguments: RealmEngine.tested) func aTypeChangeOverStoredValuesNeedsABlock(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.peopleV1, on: engine)
        try M.fillPeople(realm)
        let retyped = M.peopleV1.replacingOccurrences(of: "schemaVersion: 1", with: "schemaVersion: 2")
            .replacingOccurrences(of: "age: int", with: "age: string")
        #expect(throws: KuraError.migration(
            .typeChanged, "Person.age: type changed from int to string: 6 objects hold values that only a Swift migration block can convert")) {
            try M.migrate(path, to: retyped)
        }
        try M.migrate(path, to: retyped) { migration, _ in
            try migration.enumerateObjects(ofType: "Person") { old, new in
                guard case .int(let age)? = try old?["age"] else { return }
                try new?.setValue(.string("\(age) years"), forKey: "age")
            }
        }
        let ages = try M.values("Person", in: try Realm(path: path)).map { $0["age"] }
        #expect(ages == ["30 years", "40 years", "31 years", "22 years", "41 years", "32 years"])
    }
    @Test(arguments: RealmEngine.tested) func removingTheOnlyMixedPropertyDropsItsNestedContainers(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.peopleV1, on: engine)
        try M.fillPeople(realm)
        let before = try M.values("Person", in: realm).map { $0.filter { $0.key != "extra" } }
        let withoutMixed = M.peopleV1.replacingOccurrences(of: "schemaVersion: 1", with: "schemaVersion: 2")
            .replacingOccurrences(of: "      extra: mixed\n", with: "")
        try M.migrate(path, to: withoutMixed)
        #expect(try M.values("Person", in: try Realm(path: path)) == before)
        // The nested list and map the removed values held are gone with them.
        let report = try RealmChecker(path: path).check()
        #expect(report.isHealthy, "\(report)")
    }
}
