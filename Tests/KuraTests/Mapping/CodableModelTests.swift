import Foundation
import Kura
import KuraTestSupport
import Testing

/// Models declared once as Codable types: Kura derives their schema and stores them, cycles included.
@Suite struct CodableModelTests {
    @Test func theSwiftModelDerivesTheSamplesSchema() throws {
        let derived = try Schema(models: sampleModels, version: 1)
        #expect(derived == (try Fixtures.samplesSchema()), "\(derived.yaml)")
    }

    @Test func aCyclicSharedGraphRoundTripsThroughARealm() throws {
        let path = try Fixtures.realmPath()
        let rex = Dog(name: "Rex", age: 3, color: "brown", citiesVisited: ["Tokyo", "Oslo"], parks: ["Tokyo": "Ueno"],
                      companion: ["kind": "cat", "lives": 9], favoriteToy: DogToy(name: "Rope"))
        let alice = Person(name: "Alice", dogs: [rex, Dog(name: "Fido", age: 1)], address: Address(city: "Tokyo"))
        let bob = Person(name: "Bob", dogs: [rex])
        alice.bestFriend = bob
        bob.bestFriend = alice
        let club = DogClub(name: "Walkers", members: [alice, bob, alice])
        do {
            let realm = try Realm(path: path, schema: try Schema(models: sampleModels, version: 1))
            try realm.write { try realm.add(club) }
            #expect(try realm.count("Person") == 2)
            #expect(try realm.count("Dog") == 2)
            #expect(try realm.count("DogToy") == 1)
        }
        let realm = try Realm(path: path)
        let people = Array(try realm.objects(Person.self))
        #expect(people.map(\.name) == ["Alice", "Bob"])
        #expect(people.map(\.id) == [1, 2])
        #expect(people.allSatisfy { $0.createdAt != nil })
        let (storedAlice, storedBob) = (people[0], people[1])
        #expect(storedAlice.bestFriend === storedBob)
        #expect(storedBob.bestFriend === storedAlice)
        #expect(storedAlice.address == Address(city: "Tokyo"))
        #expect(storedAlice.dogs.map(\.name) == ["Rex", "Fido"])
        #expect(storedAlice.dogs[0] === storedBob.dogs[0])
        let storedRex = storedAlice.dogs[0]
        #expect(storedRex.citiesVisited == ["Tokyo", "Oslo"])
        #expect(storedRex.favoriteParksByCity == ["Tokyo": "Ueno"])
        #expect(storedRex.companion == ["kind": "cat", "lives": 9])
        #expect(storedRex.favoriteToy == DogToy(name: "Rope"))
        #expect(storedRex.color == "brown")
        let clubs = Array(try realm.objects(DogClub.self))
        #expect(clubs.first?.members.map(\.name) == ["Alice", "Bob", "Alice"])
        #expect(try realm.objects("Dog")[0].linkingObjects("owners").count == 2)
    }

    @Test(arguments: RealmEngine.tested) func addReturnsTheStoredModelWithGeneratedValues(on engine: RealmEngine) throws {
        let realm = try engine.makeRealm(try Schema(models: sampleModels, version: 1))
        let before = Date()
        let stored = try realm.write { try realm.add(Person(name: "Carol")) }
        #expect(stored.id == 1)
        #expect(stored.createdAt.map { abs($0.timeIntervalSince(before)) < 60 } == true)
        let updated = try realm.write { try realm.add(Person(id: 1, name: "Caroline"), update: .modified) }
        #expect(updated.name == "Caroline")
        #expect(updated.createdAt == stored.createdAt)
        #expect(try realm.object(ofType: Person.self, forPrimaryKey: 1)?.name == "Caroline")
    }

    @Test func theValueDecoderIsStrict() throws {
        let document: Value = ["name": "Rex", "age": "3", "citiesVisited": [], "favoriteParksByCity": [:], "companion": nil]
        #expect(throws: DecodingError.self) { try ValueDecoder.decode(Dog.self, from: document) }
        let good = try ValueDecoder.decode(Dog.self, from: document.merging(["age": 3]))
        #expect(good.age == 3)
        #expect(throws: DecodingError.self) { try ValueDecoder.decode(Dog.self, from: document.merging(["age": .int(1 << 40), "name": 5])) }
        let encoded = try ValueEncoder().encode(good)
        #expect(encoded == ["name": "Rex", "age": 3, "citiesVisited": [], "favoriteParksByCity": [:], "companion": nil])
    }

    @Test func decimalsAndObjectIdsWorkWithFoundationCoders() throws {
        struct Money: Codable, Equatable {
            var amount: Decimal128
            var id: ObjectId
        }
        let money = Money(amount: try #require(Decimal128("-12.50")), id: try #require(ObjectId(hex: "507f1f77bcf86cd799439011")))
        let json = try JSONEncoder().encode(money)
        #expect(String(decoding: json, as: UTF8.self).contains(#""amount":"-12.50""#))
        #expect(try JSONDecoder().decode(Money.self, from: json) == money)
        let bad = Data(#"{"amount": "abc", "id": "507f1f77bcf86cd799439011"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Money.self, from: bad) }
    }

    @Test func aModelTypeKuraCannotStoreIsRefused() {
        struct Weird: KuraObject {
            var name: String
            var point: [Int: Int]
        }
        expectKuraError(.schema) { try Schema(models: [Weird.self]) }
        struct Bare: KuraObject {
            var toy: DogToy
        }
        do {
            _ = try Schema(models: [Bare.self])
            Issue.record("a required link was accepted")
        } catch {
            #expect("\(error)" == "error: Bare.toy: a link to DogToy must be optional")
        }
    }
}
