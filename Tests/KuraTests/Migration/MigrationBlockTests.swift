import Foundation
import Kura
import KuraTestSupport
import Testing

/// The Swift migration API: a block that reads the old objects and changes the new ones inside the
/// migration's transaction.
@Suite struct MigrationBlockTests {
    typealias M = MigrationFixtures

    /// People keyed by name (duplicates must be mended), with `age` renamed by the block.
    static let keyedByName = M.peopleByName.replacingOccurrences(of: "      age: int", with: "      years: int\n      tags: list<string>")

    @Test(arguments: RealmEngine.tested) func theBlockMendsDuplicateKeysAndRenamesProperties(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.peopleV1, on: engine)
        try M.fillPeople(realm)
        let seen = Captured<[Int]>([])
        let configuration = Realm.Configuration(path: path, schema: try Schema(yaml: Self.keyedByName)) { migration, oldVersion in
            seen.value.append(oldVersion)
            try migration.renameProperty(onType: "Person", from: "age", to: "years")
            var counts: [String: Int] = [:]
            try migration.enumerateObjects(ofType: "Person") { old, new in
                guard case .string(let name)? = try old?["name"], let new else { return }
                counts[name, default: 0] += 1
                if let count = counts[name], count > 1 { try new.setValue(.string("\(name) \(count)"), forKey: "name") }
            }
        }
        let migrated = try Realm(configuration: configuration)
        #expect(seen.value == [1])
        let people = try M.values("Person", in: migrated)
        #expect(people.map { $0["name"] } == ["Alice", "Bob", "Alice 2", "Carol", "Bob 2", "Alice 3"])
        #expect(people.map { $0["years"] } == [30, 40, 31, 22, 41, 32])
        #expect(people.map { $0["tags"] } == [["a", "b"], ["c"], [], [], [], []])
        #expect(try migrated.object(ofType: "Person", forPrimaryKey: "Bob 2")?["years"] == 41)
        // Keys are settled again once the migration is over.
        expectKuraError(.store) {
            try migrated.write { try migrated.objects("Person").first?.setValue("Zoe", forKey: "name") }
        }
    }

    @Test(arguments: RealmEngine.tested) func duplicatesTheBlockLeavesAreRefusedAndNothingChanges(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.peopleV1, on: engine)
        try M.fillPeople(realm)
        let stored = try M.storedState(path, on: engine)
        #expect(throws: KuraError.migration(
            .duplicateKeys,
            #"Person.name: cannot be the primary key: 2 values are held by more than one object: "Alice" (3 objects), "Bob" (2 objects)"#)) {
            try M.migrate(path, to: Self.keyedByName) { migration, _ in
                try migration.renameProperty(onType: "Person", from: "age", to: "years")
            }
        }
        #expect(throws: KuraError.migration(
            .missingValues, "Person.years: 6 objects have no value for the required int property after the migration")) {
            try M.migrate(path, to: Self.keyedByName) { migration, _ in
                try migration.enumerateObjects(ofType: "Person") { old, new in
                    guard let old, let new else { return }
                    try new.setValue(.string("\(try old["name"]) \(old.ref.id)"), forKey: "name")
                }
            }
        }
        #expect(try M.storedState(path, on: engine) == stored)
        #expect(try Realm(path: path).schema.version == 1)
    }

    @Test(arguments: RealmEngine.tested) func aThrowingBlockRollsTheWholeMigrationBack(on engine: RealmEngine) throws {
        struct Stop: Error {}
        let (path, realm) = try M.realm(M.diaryV1, on: engine)
        try M.fillDiary(realm, count: 10)
        #expect(throws: Stop.self) {
            try M.migrate(path, to: M.diaryV2) { migration, _ in
                try migration.enumerateObjects(ofType: "Diary") { _, new in
                    if let new { try migration.delete(new) }
                }
                throw Stop()
            }
        }
        let reopened = try Realm(path: path)
        #expect(reopened.schema == (try Schema(yaml: M.diaryV1)))
        #expect(try M.values("Diary", in: reopened).map { $0["text"] } == (0..<10).map { .string("entry \($0)") })
    }

    @Test(arguments: RealmEngine.tested) func createDeleteAndDeleteDataWorkOnTheNewRealm(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.peopleV1, on: engine)
        try M.fillPeople(realm)
        let result = Captured<[Bool]>([])
        try M.migrate(path, to: """
            schemaVersion: 2
            types:
              Person:
                properties:
                  name: string
                  age: int
              Dog:
                properties:
                  name: string
              Note:
                properties:
                  text: string
            """) { migration, _ in
            try migration.enumerateObjects(ofType: "Person") { old, new in
                if try old?["age"] == 22, let new { try migration.delete(new) }
            }
            try migration.enumerateObjects(ofType: "Person") { old, new in
                if try old?["age"] == 22 { #expect(new == nil) }
            }
            result.value.append(try migration.deleteData(forType: "Dog"))
            result.value.append(try migration.deleteData(forType: "Address"))
            try migration.create("Note", value: ["text": .string("migrated from \(migration.oldSchema.version)")])
            try migration.create("Dog", value: ["name": "Newcomer"])
        }
        #expect(result.value == [true, true])
        let migrated = try Realm(path: path)
        #expect(try M.values("Person", in: migrated).map { $0["age"] } == [30, 40, 31, 41, 32])
        #expect(try M.values("Dog", in: migrated).map { $0["name"] } == ["Newcomer"])
        #expect(try M.values("Note", in: migrated).map { $0["text"] } == ["migrated from 1"])
    }

    @Test(arguments: RealmEngine.tested) func misusesAreErrorsNotCrashes(on engine: RealmEngine) throws {
        let (path, realm) = try M.realm(M.peopleV1, on: engine)
        try M.fillPeople(realm)
        let escaped = Captured<MigrationObject?>(nil)
        let v2 = M.peopleV1.replacingOccurrences(of: "schemaVersion: 1", with: "schemaVersion: 2")
            .replacingOccurrences(of: "      age: int\n", with: "      years: string?\n")
        try M.migrate(path, to: v2) { migration, _ in
            #expect(throws: KuraError.migration(.unknownType, "no type 'Cat' in the old schema (types: Address, Dog, Person)")) {
                try migration.enumerateObjects(ofType: "Cat") { _, _ in }
            }
            #expect(throws: KuraError.migration(
                .invalidRename, "Person: cannot rename 'name' to 'years': the old schema has no stored property 'name' that the new one drops")) {
                try migration.renameProperty(onType: "Person", from: "name", to: "years")
            }
            #expect(throws: KuraError.migration(.invalidRename, "Person: cannot rename 'age' to 'years': int values do not fit a string? property")) {
                try migration.renameProperty(onType: "Person", from: "age", to: "years")
            }
            try migration.enumerateObjects(ofType: "Person") { old, new in
                escaped.value = old
                #expect(throws: KuraError.store(.notInWriteTransaction, "the realm is already in a write transaction")) {
                    try new?.realm.write {}
                }
            }
        }
        let old = try #require(escaped.value)
        #expect(throws: KuraError.migration(.migrationEnded, "the migration has ended: its objects can be read only inside the migration block")) {
            try old["name"]
        }
        #expect(try M.values("Person", in: try Realm(path: path)).map { $0["years"] } == Array(repeating: .null, count: 6))
    }
}
