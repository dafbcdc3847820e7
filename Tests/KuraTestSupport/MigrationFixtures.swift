import Foundation
import Kura

/// Schemas and realms shared by the migration tests.
package enum MigrationFixtures {
    /// The scenario from the field (`Samples/diary-v1.yaml`): diary entries without a primary key…
    package static let diaryV1 = sample("diary-v1.yaml")

    /// …that get a generated UUID key in version 2 (`Samples/diary-v2.yaml`).
    package static let diaryV2 = sample("diary-v2.yaml")

    /// The text of a file in `Samples/` (empty if it cannot be read, which the tests then show).
    package static func sample(_ name: String) -> String {
        (try? String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Samples/\(name)"), encoding: .utf8)) ?? ""
    }

    /// People without a key, with every kind of stored value.
    package static let peopleV1 = """
        schemaVersion: 1
        types:
          Person:
            properties:
              name: string
              age: int
              nick: string?
              tags: list<string>
              extra: mixed
              home: Address?
              pets: list<Dog>
          Dog:
            properties:
              name: string
              owners: { linkingObjects: Person.pets }
          Address:
            embedded: true
            properties:
              city: string?
        """

    /// The people of version 1 keyed by name, which three Alices and two Bobs do not allow.
    package static let peopleByName = """
        schemaVersion: 2
        types:
          Person:
            primaryKey: name
            properties:
              name: string
              age: int
        """

    /// The first entry's date; entry `i` is `i` hours later.
    package static let firstDate = Date(timeIntervalSince1970: 1_700_000_000)

    /// A realm file at a fresh path created with `yaml`.
    package static func realm(_ yaml: String) throws -> (path: String, realm: Realm) {
        let path = try Fixtures.realmPath()
        return (path, try Realm(path: path, schema: try Schema(yaml: yaml)))
    }

    /// Writes `count` diary entries, `entry 0` to `entry <count-1>`.
    package static func fillDiary(_ realm: Realm, count: Int) throws {
        try realm.write {
            for index in 0..<count {
                try realm.create("Diary", value: [
                    "text": .string("entry \(index)"), "date": .date(firstDate.addingTimeInterval(Double(index) * 3600)),
                ])
            }
        }
    }

    /// Six people: three Alices, two Bobs, one Carol, with lists, nested mixed values, addresses and dogs.
    package static func fillPeople(_ realm: Realm) throws {
        try realm.write {
            let rex = try realm.create("Dog", value: ["name": "Rex"])
            try realm.create("Person", value: [
                "name": "Alice", "age": 30, "tags": ["a", "b"], "extra": [1, [2, "three"]], "home": ["city": "Oslo"],
                "pets": [.object(rex.ref)],
            ])
            try realm.create("Person", value: ["name": "Bob", "age": 40, "nick": "bobby", "tags": ["c"], "extra": ["k": "v"]])
            try realm.create("Person", value: ["name": "Alice", "age": 31, "pets": [.object(rex.ref), ["name": "Fido"]]])
            try realm.create("Person", value: ["name": "Carol", "age": 22, "home": ["city": "Rome"], "extra": .object(rex.ref)])
            try realm.create("Person", value: ["name": "Bob", "age": 41])
            try realm.create("Person", value: ["name": "Alice", "age": 32])
        }
    }

    /// Every object of `type` as its stored values, in creation order.
    package static func values(_ type: String, in realm: Realm) throws -> [[String: Value]] {
        try realm.objects(type).map { try $0.values() }
    }

    /// The realm file's bytes.
    package static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Migrates the realm at `path` to `yaml` with `Realm.performMigration`.
    package static func migrate(_ path: String, to yaml: String, block: MigrationBlock? = nil) throws {
        try Realm.performMigration(for: Realm.Configuration(path: path, schema: try Schema(yaml: yaml), migrationBlock: block))
    }
}

/// A value a `@Sendable` migration block hands back to the test that runs it.
package final class Captured<T>: @unchecked Sendable {
    package var value: T
    package init(_ value: T) { self.value = value }
}
