import Foundation
@testable import Kura
import GRDB
import KuraTestSupport
import Testing

/// The change log: one version per commit that changed objects, from this process and others,
/// with inserted id ranges, modified ids and deleted ids with their primary keys.
@Suite struct ChangeLogTests {
    static func samplesRealm() throws -> (Realm, String) {
        let path = try Fixtures.realmPath("people.realm")
        return (try Realm(path: path, schema: try Fixtures.samplesSchema()), path)
    }

    @Test func eachCommitLeavesOneVersionWithWhatItDid() throws {
        let (realm, _) = try Self.samplesRealm()
        #expect(try realm.changeVersion == 0)
        try realm.write {
            for name in ["Ann", "Bo", "Cy"] { try realm.create("Person", value: ["name": .string(name)]) }
        }
        try realm.write { try realm.create("Person", value: ["id": 2, "name": "Bob"], update: .modified) }
        try realm.write { try realm.create("Person", value: ["id": 3, "name": "Cy"], update: .modified) }
        try realm.write {
            guard let ann = try realm.object(ofType: "Person", forPrimaryKey: 1) else { return }
            try realm.delete(ann)
            try realm.create("Person", value: ["name": "Di"])
        }
        #expect(try realm.changeVersion == 3, "the write that changed nothing has no version")
        let changes = try realm.changes(after: 0)
        #expect(changes.map(\.version) == [1, 2, 3])
        #expect(changes.map(\.types) == [
            ["Person": TypeChanges(inserted: [1...3])],
            ["Person": TypeChanges(modified: [2])],
            ["Person": TypeChanges(inserted: [4...4], deleted: [DeletedObject(id: 1, primaryKey: 1)])],
        ])
        #expect(try realm.changes(after: 2).map(\.version) == [3])
        #expect(try realm.changes(after: 0, limit: 1).map(\.version) == [1])
        #expect(try realm.primaryKeys(ofType: "Person", ids: [1, 2, 4]) == [2: 2, 4: 4])
        #expect(try Fixtures.problems(realm) == [])
    }

    /// Text keys come back whole, a NUL in the middle included, both for objects still stored and
    /// for deleted ones.
    @Test func textKeysWithANulAreReadWhole() throws {
        let schema = try Schema(yaml: """
            types:
              Tag:
                primaryKey: code
                properties:
                  code: string
            """)
        let realm = try Realm(path: try Fixtures.realmPath("tags.realm"), schema: schema)
        let key = "a\u{0}b"
        try realm.write {
            try realm.create("Tag", value: ["code": .string(key)])
            try realm.create("Tag", value: ["code": "a"])
        }
        #expect(try realm.primaryKeys(ofType: "Tag", ids: [1, 2]) == [1: .string(key), 2: "a"])
        try realm.write {
            guard let tag = try realm.object(ofType: "Tag", forPrimaryKey: .string(key)) else { return }
            try realm.delete(tag)
        }
        #expect(try realm.changes(after: 1).map(\.types) == [["Tag": TypeChanges(deleted: [DeletedObject(id: 1, primaryKey: .string(key))])]])
    }

    @Test func anObjectMadeAndChangedInOneCommitIsOnlyInserted() throws {
        let (realm, _) = try Self.samplesRealm()
        try realm.write {
            try realm.create("Person", value: ["name": "Ann", "dogs": [["name": "Rex", "age": 1]]])
            try realm.create("Person", value: ["id": 1, "name": "Anna", "dogs": [["name": "Rex", "age": 2]]], update: .modified)
            try realm.create("Person", value: ["name": "Bo"])
            guard let bo = try realm.object(ofType: "Person", forPrimaryKey: 2) else { return }
            try realm.delete(bo)
        }
        let types = try realm.changes(after: 0).map(\.types)
        // Anna's dog updates the dog her list holds, Rex, made in the same commit.
        #expect(types == [["Person": TypeChanges(inserted: [1...2]), "Dog": TypeChanges(inserted: [1...1])]])
    }

    @Test func collectionChangesAndUnlinkingModifyTheOwner() throws {
        let (realm, _) = try Self.samplesRealm()
        try realm.write {
            try realm.create("Person", value: ["name": "Ann", "dogs": [["name": "Rex", "age": 1], ["name": "Fido", "age": 2]]])
            try realm.create("Person", value: ["name": "Bo"])
        }
        // A dog appended to Bo's empty list: only rows inserted, which the writer notes.
        try realm.write {
            try realm.create("Person", value: ["id": 2, "name": "Bo", "dogs": [["name": "Max", "age": 3]]], update: .modified)
        }
        // Fido deleted: Ann's list loses it, so Ann is modified.
        try realm.write {
            guard let fido = try realm.objects("Dog", where: "name == 'Fido'").first else { return }
            try realm.delete(fido)
        }
        let changes = try realm.changes(after: 1)
        #expect(changes.map(\.types) == [
            ["Person": TypeChanges(modified: [2]), "Dog": TypeChanges(inserted: [3...3])],
            ["Person": TypeChanges(modified: [1]), "Dog": TypeChanges(deleted: [DeletedObject(id: 2, primaryKey: nil)])],
        ])
    }

    @Test func commitsOfOtherProcessesAreInTheFile() throws {
        let (realm, path) = try Self.samplesRealm()
        let kura = Fixtures.executable("kura")
        let samples = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        let imported = try Fixtures.run(kura, ["import", path, samples, "--type", "Person"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let deleted = try Fixtures.run(kura, ["delete", path, "--type", "Dog", "--where", "name == 'Rex'"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let changes = try realm.changes(after: 0)
        #expect(changes.map(\.version) == [1, 2])
        #expect(changes.first?.types["Person"] == TypeChanges(inserted: [1...3]))
        #expect(changes.first?.types["Dog"] == TypeChanges(inserted: [1...2]))
        #expect(changes.last?.types == [
            "Dog": TypeChanges(deleted: [DeletedObject(id: 1, primaryKey: nil)]),
            "Person": TypeChanges(modified: [1, 2]),
        ])
    }

    @Test func theLogKeepsTheLatestVersionsOnly() throws {
        let (realm, _) = try Self.samplesRealm()
        for index in 0..<(ChangeTracker.historyLength + 2) {
            try realm.write { try realm.create("DogToy", value: ["name": .string("toy \(index)")]) }
        }
        #expect(try realm.changeVersion == ChangeTracker.historyLength + 2)
        #expect(try realm.changes(after: 2).count == Int(ChangeTracker.historyLength))
        #expect(throws: KuraError.store(
            .changesPruned, "the change log starts after version 2: the changes after version 1 are no longer recorded"
        )) { try realm.changes(after: 1) }
    }

    @Test func aRealmWithoutTheLogGetsItOnAWritableOpen() throws {
        let path = try Fixtures.realmPath()
        do {
            let realm = try Realm(path: path, schema: try Fixtures.samplesSchema())
            try #require(realm.connection as? Kura.SQLiteConnection).queue.write { db in
                try db.execute(sql: ##"DROP TABLE "#changes"; DROP TABLE "#changed""##)
            }
        }
        let readOnly = try Realm(configuration: .init(path: path, readOnly: true))
        #expect(try readOnly.changeVersion == 0)
        #expect(try readOnly.changes(after: 0) == [])
        let realm = try Realm(path: path)
        let queue = try #require(realm.connection as? Kura.SQLiteConnection).queue
        #expect(try queue.read { db in try ChangeTracker.hasTables(db) })
        try realm.write { try realm.create("DogToy", value: ["name": "ball"]) }
        #expect(try readOnly.changes(after: 0).map(\.types) == [["DogToy": TypeChanges(inserted: [1...1])]])
    }

    @Test func aMigrationIsASchemaChange() throws {
        let path = try Fixtures.realmPath()
        do {
            let realm = try Realm(path: path, schema: try Schema(models: [Pup.self]))
            try realm.write { try realm.add(Pup(name: "Rex", age: 1)) }
        }
        var pup = try #require(try Schema(models: [Pup.self]).types.first)
        pup.properties.append(Property(name: "size", type: .optional(.int)))
        let realm = try Realm(path: path, schema: Schema(types: [pup]))
        let changes = try realm.changes(after: 0)
        #expect(changes.map(\.version) == [1, 2])
        #expect(changes.map(\.schemaChanged) == [false, true])
        #expect(changes.last?.types == [:])
    }
}
