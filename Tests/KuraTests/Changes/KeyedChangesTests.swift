import Foundation
import Kura
import KuraTestSupport
import Testing

/// `Realm.keyedChanges(after:limit:keyLimit:)`: the change log with objects named by their keys,
/// on every engine.
@Suite struct KeyedChangesTests {
    static let schema = """
        types:
          Person:
            primaryKey: name
            properties:
              name: string
              age: int
          Note:
            properties:
              text: string
        """

    func realm(_ engine: RealmEngine) throws -> Realm {
        try engine.makeRealm(try Schema(yaml: Self.schema), label: "keyed")
    }

    @Test(arguments: RealmEngine.tested) func namesObjectsByPrimaryKeyOrObjectId(on engine: RealmEngine) throws {
        let realm = try realm(engine)
        let start = try realm.changeVersion
        try realm.write {
            _ = try realm.create("Person", value: ["name": "Ann", "age": 30])
            _ = try realm.create("Person", value: ["name": "Bob", "age": 40])
            _ = try realm.create("Note", value: ["text": "hello"])
        }
        try realm.write { _ = try realm.create("Person", value: ["name": "Ann", "age": 31], update: .update) }
        try realm.write { _ = try realm.delete("Person", where: "name == 'Bob'") }
        let changes = try realm.keyedChanges(after: start)
        #expect(changes.map(\.version) == [start + 1, start + 2, start + 3])
        #expect(changes[0].types == [
            "Person": KeyedTypeChanges(inserted: .keys(["Ann", "Bob"]), modified: .keys([]), deleted: .keys([])),
            "Note": KeyedTypeChanges(inserted: .keys([.int(1)]), modified: .keys([]), deleted: .keys([])),
        ])
        #expect(changes[1].types == ["Person": KeyedTypeChanges(inserted: .keys([]), modified: .keys(["Ann"]), deleted: .keys([]))])
        #expect(changes[2].types == ["Person": KeyedTypeChanges(inserted: .keys([]), modified: .keys([]), deleted: .keys(["Bob"]))])
        // Bob is gone now: his key in the first commit comes from the commit that deleted him.
        #expect(try realm.keyedChanges(after: start, limit: 1).first?.types["Person"]?.inserted == .keys(["Ann", "Bob"]))
    }

    @Test(arguments: RealmEngine.tested) func aKindPastTheKeyLimitIsACountAndAnObjectCreatedAndDeletedAtOnceIsLeftOut(on engine: RealmEngine) throws {
        let realm = try realm(engine)
        let start = try realm.changeVersion
        try realm.write {
            for name in ["A", "B", "C"] { _ = try realm.create("Person", value: ["name": .string(name), "age": 1]) }
            _ = try realm.create("Note", value: ["text": "gone"])
            _ = try realm.delete("Note", where: nil)
        }
        let change = try #require(try realm.keyedChanges(after: start, keyLimit: 2).first)
        #expect(change.types["Person"] == KeyedTypeChanges(inserted: .count(3), modified: .keys([]), deleted: .keys([])))
        #expect(change.types["Person"]?.isTruncated == true)
        #expect(change.types["Note"] == nil)
    }
}
