import Foundation
import Kura
import KuraTestSupport
import Testing

/// Deleting objects nullifies links, leaves collections dense and deletes embedded children.
struct DeletionCases {
    let realm: Realm

    init(_ engine: RealmEngine) throws {
        realm = try Realm(path: try engine.freshRealm(), schema: try Fixtures.samplesSchema())
    }

    func seed() throws -> (alice: DynamicObject, bob: DynamicObject) {
        try realm.write {
            let alice = try realm.create("Person", value: [
                "name": "Alice", "address": ["street": "1 Main St", "city": "Tokyo"],
                "dogs": [
                    ["name": "Rex", "age": 3, "favoriteToy": ["name": "Rope"]],
                    ["name": "Fido", "age": 1],
                    ["name": "Maui", "age": 7],
                ],
            ])
            let rex = try alice.objects("dogs")[0]
            let bob = try realm.create("Person", value: ["name": "Bob", "bestFriend": .object(alice.ref), "dogs": [.object(rex.ref)]])
            try alice.setValue(.object(bob.ref), forKey: "bestFriend")
            try realm.create("DogClub", value: ["name": "Club", "members": [.object(alice.ref), .object(bob.ref), .object(alice.ref)]])
            try rex.setValue(["pal": .object(bob.ref), "list": [.object(bob.ref), 1]], forKey: "companion")
            return (alice, bob)
        }
    }

    func deletingAnObjectNullifiesLinksAndRemovesItFromCollections() throws {
        let (alice, bob) = try seed()
        let rex = try alice.objects("dogs")[0]
        try realm.write { try realm.delete(bob) }
        #expect(bob.isInvalidated)
        #expect(try alice["bestFriend"] == .null)
        let club = try #require(try realm.objects("DogClub").first)
        #expect(try club.objects("members") == [alice, alice])
        #expect(try rex["companion"] == ["list": [1]])
        #expect(try rex.linkingObjects("owners") == [alice])
        // Positions stay dense: the list reads back in order with no gap.
        try realm.write { try realm.delete(try alice.objects("dogs")[1]) }
        #expect(try alice.objects("dogs").map { try $0["name"] } == ["Rex", "Maui"])
        #expect(try Fixtures.problems(realm) == [])
    }

    func deletingAParentDeletesItsEmbeddedObjects() throws {
        let (alice, _) = try seed()
        guard case .object(let address) = try alice["address"] else {
            Issue.record("Alice has no address")
            return
        }
        #expect(try realm.count("Address") == 1)
        try realm.write { try realm.delete(alice) }
        #expect(try realm.count("Address") == 0)
        #expect(try realm.object(address) == nil)
        // Alice's dogs are not embedded: they stay.
        #expect(try realm.count("Dog") == 3)
        #expect(try Fixtures.problems(realm) == [])
    }

    func replacingAnEmbeddedObjectDeletesTheOldOne() throws {
        let (alice, _) = try seed()
        try realm.write { try alice.setValue(nil, forKey: "address") }
        #expect(try realm.count("Address") == 0)
        try realm.write { try alice.setValue(["city": "Osaka"], forKey: "address") }
        #expect(try realm.count("Address") == 1)
        #expect(try alice.link("address")?["city"] == "Osaka")
        #expect(try Fixtures.problems(realm) == [])
    }

    func aHandleToADeletedObjectThrowsATypedError() throws {
        let (_, bob) = try seed()
        try realm.write { try realm.delete(bob) }
        #expect(throws: KuraError.store(.objectDeleted, "object Person#2 has been deleted or was never stored")) {
            try bob["name"]
        }
        #expect(throws: KuraError.store(.objectDeleted, "object Person#2 has been deleted or was never stored")) {
            try realm.write { try bob.setValue("Robert", forKey: "name") }
        }
        #expect(throws: KuraError.store(.objectDeleted, "object Person#2 has been deleted or was never stored")) {
            try realm.write { try realm.delete(bob) }
        }
    }

    func ownersOfDogsAgedThreeOrMoreComeFromBacklinks() throws {
        let (alice, bob) = try seed()
        var owners: [String] = []
        for dog in try realm.objects("Dog") {
            guard case .int(let age) = try dog["age"], age >= 3 else { continue }
            for owner in try dog.linkingObjects("owners") {
                if case .string(let name) = try owner["name"], !owners.contains(name) { owners.append(name) }
            }
        }
        #expect(owners.sorted() == ["Alice", "Bob"])
        #expect(try realm.objects("Dog").filter { try $0["name"] == "Maui" }.first?.linkingObjects("owners") == [alice])
        _ = bob
    }
}

/// The cases of `DeletionCases`, each run on every engine that does not need an SQLite file.
@Suite struct DeletionTests {
    @Test(arguments: RealmEngine.tested) func deletingAnObjectNullifiesLinksAndRemovesItFromCollections(on engine: RealmEngine) throws {
        try DeletionCases(engine).deletingAnObjectNullifiesLinksAndRemovesItFromCollections()
    }
    @Test(arguments: RealmEngine.tested) func deletingAParentDeletesItsEmbeddedObjects(on engine: RealmEngine) throws {
        try DeletionCases(engine).deletingAParentDeletesItsEmbeddedObjects()
    }
    @Test(arguments: RealmEngine.tested) func replacingAnEmbeddedObjectDeletesTheOldOne(on engine: RealmEngine) throws {
        try DeletionCases(engine).replacingAnEmbeddedObjectDeletesTheOldOne()
    }
    @Test(arguments: RealmEngine.tested) func aHandleToADeletedObjectThrowsATypedError(on engine: RealmEngine) throws {
        try DeletionCases(engine).aHandleToADeletedObjectThrowsATypedError()
    }
    @Test(arguments: RealmEngine.tested) func ownersOfDogsAgedThreeOrMoreComeFromBacklinks(on engine: RealmEngine) throws {
        try DeletionCases(engine).ownersOfDogsAgedThreeOrMoreComeFromBacklinks()
    }
}
