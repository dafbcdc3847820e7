import Foundation
import Kura
import KuraTestSupport
import Testing

/// A model class instance read from a realm is the stored object it was read as: written back, it
/// updates that object and the objects it links to in place; `delete(model)` deletes it.
@Suite struct ModelIdentityTests {
    static func realmWithAlice() throws -> (Realm, String) {
        let path = try Fixtures.realmPath()
        let realm = try Realm(path: path, schema: try Schema(models: sampleModels))
        try realm.write {
            try realm.add(Person(name: "Alice", dogs: [Dog(name: "Rex", age: 3), Dog(name: "Fido", age: 2)], address: Address(city: "Oslo")))
        }
        return (realm, path)
    }

    static func dogs(_ realm: Realm) throws -> [String] {
        try realm.objects("Dog").map { "\($0.ref.id) \(try $0["name"]) \(try $0["age"])" }
    }

    @Test func aFetchedPersonWrittenBackUpdatesItsDogsAndAddressInPlace() throws {
        let (_, path) = try Self.realmWithAlice()
        let before = try Fixtures.run(Fixtures.executable("kura"), ["export", path, "--format", "jsonl"])
        let realm = try Realm(path: path)
        #expect(try Self.dogs(realm) == ["1 \"Rex\" 3", "2 \"Fido\" 2"])
        let alice = try #require(try realm.object(ofType: Person.self, forPrimaryKey: 1))
        alice.dogs[0].age = 4
        alice.address?.city = "Bergen"
        try realm.write { try realm.add(alice, update: .modified) }
        #expect(try Self.dogs(realm) == ["1 \"Rex\" 4", "2 \"Fido\" 2"])
        #expect(try realm.count("Address") == 1)
        let stored = try #require(try realm.object(ofType: "Person", forPrimaryKey: 1))
        #expect(try stored.objects("dogs").map(\.ref.id) == [1, 2])
        #expect(try realm.objects("Address").first?["city"] == "Bergen")
        let after = try Fixtures.run(Fixtures.executable("kura"), ["export", path, "--format", "jsonl"])
        let changed = zip(before.stdout.split(separator: "\n"), after.stdout.split(separator: "\n")).filter { $0.0 != $0.1 }
        #expect(before.stdout.split(separator: "\n").count == after.stdout.split(separator: "\n").count)
        #expect(changed.map { "\($0.1)" }.count == 1, "\(after.stdout)")
        #expect(changed.first.map { $0.0.replacingOccurrences(of: "\"Oslo\"", with: "\"Bergen\"")
            .replacingOccurrences(of: "\"age\":3", with: "\"age\":4") == $0.1 } == true, "\(changed)")
    }

    @Test func aDogWithoutAPrimaryKeyIsFoundByWhatItWasReadAs() throws {
        let (realm, _) = try Self.realmWithAlice()
        let fido = try #require(try realm.objects(Dog.self).filter("name == %@", "Fido").first)
        fido.age = 5
        try realm.write { try realm.add(fido, update: .update) }
        #expect(try Self.dogs(realm) == ["1 \"Rex\" 3", "2 \"Fido\" 5"])
        // An instance added becomes that object too.
        let bella = Dog(name: "Bella", age: 1)
        try realm.write { try realm.add(bella) }
        bella.age = 2
        try realm.write { try realm.add(bella, update: .modified) }
        #expect(try Self.dogs(realm) == ["1 \"Rex\" 3", "2 \"Fido\" 5", "3 \"Bella\" 2"])
        // A copy decoded from JSON is a new object: it has no identity and Dog has no primary key.
        let copies = try DocumentDecoder(models: sampleModels).decode(Dog.self, json: Data(#"[{"name": "Fido", "age": 5}]"#.utf8))
        try realm.write { try realm.add(try #require(copies.first), update: .modified) }
        #expect(try realm.count("Dog") == 4)
    }

    @Test func deletingAModelDeletesTheObjectItIs() throws {
        let (realm, _) = try Self.realmWithAlice()
        let rex = try #require(try realm.objects(Dog.self).first)
        try realm.write { try realm.delete(rex) }
        #expect(try Self.dogs(realm) == ["2 \"Fido\" 2"])
        #expect(try realm.object(ofType: Person.self, forPrimaryKey: 1)?.dogs.map(\.name) == ["Fido"])
        #expect(throws: KuraError.store(
            .unmanagedObject,
            "this Dog was not read from or added to this realm, and Dog has no primary key: nothing says which object to delete"
        )) { try realm.write { try realm.delete(Dog(name: "Fido", age: 2)) } }
        #expect(throws: KuraError.store(.unmanagedObject, "no stored Person has this one's primary key")) {
            try realm.write { try realm.delete(Person(id: 7, name: "Nobody")) }
        }
        try realm.write { try realm.delete(Person(id: 1, name: "Alice, by key")) }
        #expect(try realm.count("Person") == 0)
        #expect(try realm.count("Address") == 0)
    }
}
