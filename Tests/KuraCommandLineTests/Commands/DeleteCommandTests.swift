import Foundation
import Kura
import KuraTestSupport
import Testing

/// `kura delete` run as a program on realms filled by `kura import`.
@Suite struct DeleteCommandTests: SamplesRealmSuite {
    let samples: SamplesRealmFolder

    init() throws { samples = try SamplesRealmFolder() }

    func importDocuments(_ json: String) throws {
        let input = folder.appendingPathComponent("input-\(UUID().uuidString).json").path
        try json.write(toFile: input, atomically: true, encoding: .utf8)
        let imported = try Fixtures.run(kura, ["import", realmPath, input, "--type", "Person"])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    func name(of object: DynamicObject) throws -> String {
        guard case .string(let name) = try object["name"] else { return "<no name>" }
        return name
    }

    func names(_ type: String, where predicate: String? = nil, in realm: Realm) throws -> [String] {
        try realm.objects(type, where: predicate).map(name(of:))
    }

    func dogNames(of person: String, in realm: Realm) throws -> [String] {
        let owner = try #require(try realm.objects("Person", where: "name == '\(person)'").first)
        return try owner.objects("dogs").map(name(of:))
    }

    @Test func deletesMatchingDogsAndUnlinksThem() throws {
        let samples = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        #expect(try Fixtures.run(kura, ["import", realmPath, samples, "--type", "Person"]).status == 0)
        try importDocuments(#"[{"id": 4, "name": "Dana", "dogs": [{"name": "Maui", "age": 7}, {"name": "Bella", "age": 2}]}]"#)

        let deleted = try Fixtures.run(kura, ["delete", realmPath, "--type", "Dog", "--where", "age >= 3"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "Dog: 2 deleted\n")
        #expect(deleted.stderr == "")

        let realm = try Realm(path: realmPath)
        #expect(try names("Dog", in: realm) == ["Fido", "Bella"])
        // Rex left both lists it was in; Maui left Dana's; their toys are separate objects and stay.
        #expect(try dogNames(of: "Alice", in: realm) == [])
        #expect(try dogNames(of: "Bob", in: realm) == ["Fido"])
        #expect(try dogNames(of: "Dana", in: realm) == ["Bella"])
        #expect(try realm.count("DogToy") == 1)
        #expect(try names("Person", where: "ANY dogs.age >= 3", in: realm) == [])
    }

    @Test func deletingByBacklinkAndWithoutAPredicate() throws {
        let samples = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        #expect(try Fixtures.run(kura, ["import", realmPath, samples, "--type", "Person"]).status == 0)
        let dryRun = try Fixtures.run(kura, ["delete", realmPath, "--type", "Dog", "--where", "ANY owners.name == 'Bob'", "--dry-run"])
        #expect(dryRun.stdout == "dry run: nothing was written\nDog: 2 would be deleted\n")
        #expect(try Realm(path: realmPath).count("Dog") == 2)

        // People go with their embedded addresses; links to them (best friends) become null.
        let people = try Fixtures.run(kura, ["delete", realmPath, "--type", "Person", "--where", "address.city == 'Oslo'"])
        #expect(people.stdout == "Person: 1 deleted\n")
        var realm = try Realm(path: realmPath)
        #expect(try names("Person", in: realm) == ["Bob", "Chen"])
        #expect(try realm.count("Address") == 1)
        #expect(try names("Person", where: "bestFriend == nil", in: realm) == ["Bob", "Chen"])

        let all = try Fixtures.run(kura, ["delete", realmPath, "--type", "Dog"])
        #expect(all.stdout == "Dog: 2 deleted\n")
        realm = try Realm(path: realmPath)
        #expect(try realm.count("Dog") == 0)
        #expect(try names("Person", where: "dogs.@count == 0", in: realm) == ["Bob", "Chen"])
    }

    @Test func anIdIsNeverReusedAfterADelete() throws {
        try importDocuments(#"[{"name": "A"}, {"name": "B"}, {"name": "C"}]"#)
        let ids = { () throws -> [Value] in try Realm(path: realmPath).objects("Person", where: nil, sortedBy: "id").map { try $0["id"] } }
        #expect(try ids() == [1, 2, 3])
        let deleted = try Fixtures.run(kura, ["delete", realmPath, "--type", "Person", "--where", "id == 3"])
        #expect(deleted.stdout == "Person: 1 deleted\n")
        try importDocuments(#"[{"name": "D"}]"#)
        #expect(try ids() == [1, 2, 4])
        #expect(try Fixtures.run(kura, ["delete", realmPath, "--type", "Person"]).stdout == "Person: 3 deleted\n")
        try importDocuments(#"[{"name": "E"}]"#)
        #expect(try ids() == [5])
        let realm = try Realm(path: realmPath)
        #expect(try names("Person", where: "id == 5", in: realm) == ["E"])
    }

    @Test func exitCodesForBadPredicatesUnknownTypesAndMissingRealms() throws {
        let samples = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        #expect(try Fixtures.run(kura, ["import", realmPath, samples, "--type", "Person"]).status == 0)

        let misspelled = try Fixtures.run(kura, ["delete", realmPath, "--type", "Dog", "--where", "agee >= 3"])
        #expect(misspelled.status == 64)
        #expect(misspelled.stderr == "kura: where: column 1: error: Dog has no property 'agee' (did you mean 'age'?)\n")
        #expect(misspelled.stdout == "")

        let mistyped = try Fixtures.run(kura, ["delete", realmPath, "--type", "Dog", "--where", "age >= 'three'"])
        #expect(mistyped.status == 64)
        #expect(mistyped.stderr == "kura: where: column 8: error: Dog.age: expected int, found string \"three\"\n")

        let unknownType = try Fixtures.run(kura, ["delete", realmPath, "--type", "Cat"])
        #expect(unknownType.status == 64)
        #expect(unknownType.stderr == "kura: error: no type 'Cat' in the realm (types: Address, Dog, DogClub, DogToy, Person)\n")

        let embedded = try Fixtures.run(kura, ["delete", realmPath, "--type", "Address"])
        #expect(embedded.status == 64)
        #expect(embedded.stderr == "kura: error: Address is embedded: query the type that owns it, through a key path\n")

        let noType = try Fixtures.run(kura, ["delete", realmPath])
        #expect(noType.status == 64)

        #expect(try Realm(path: realmPath).count("Dog") == 2)

        let missingPath = folder.appendingPathComponent("none.realm").path
        let missing = try Fixtures.run(kura, ["delete", missingPath, "--type", "Dog"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "kura: error: no realm at '\(missingPath)'\n")
        #expect(!FileManager.default.fileExists(atPath: missingPath))
    }
}
