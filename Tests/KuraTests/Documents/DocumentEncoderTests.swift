import Foundation
import Kura
import KuraTestSupport
import Testing

/// Codable models written as documents and read back: identity, cycles and keys survive.
@Suite struct DocumentEncoderTests {
    static let created = Date(timeIntervalSince1970: 1_700_000_000.5)

    func people() -> [Person] {
        let rex = Dog(name: "Rex", age: 3, citiesVisited: ["Oslo"], companion: ["ball", 2])
        let alice = Person(id: 1, name: "Alice", dogs: [rex], address: Address(city: "Oslo"))
        let bob = Person(id: 2, name: "Bob", dogs: [rex, Dog(name: "Fido", age: 1)])
        alice.bestFriend = bob
        bob.bestFriend = alice
        alice.createdAt = Self.created
        bob.createdAt = Self.created
        return [alice, bob]
    }

    @Test func jsonTextUsesKeysForKeyedLinksAndReferencesForSharedObjects() throws {
        let encoder = try DocumentEncoder(models: sampleModels)
        let text = String(decoding: try encoder.encode(people()), as: UTF8.self)
        #expect(text == """
            [
            {"id":1,"name":"Alice","dogs":[{"$id":"Dog-1","name":"Rex","age":3,"citiesVisited":["Oslo"],"favoriteParksByCity":{},\
            "companion":["ball",2]}],"address":{"city":"Oslo"},"bestFriend":2,"createdAt":{"$date":"2023-11-14T22:13:20.500Z"}},
            {"id":2,"name":"Bob","dogs":[{"$ref":"Dog-1"},{"name":"Fido","age":1,"citiesVisited":[],"favoriteParksByCity":{},\
            "companion":null}],"bestFriend":1,"createdAt":{"$date":"2023-11-14T22:13:20.500Z"}}
            ]

            """)
    }

    @Test(arguments: DocumentFormat.allCases)
    func modelsRoundTripWithTheirShape(_ format: DocumentFormat) throws {
        let encoder = try DocumentEncoder(models: sampleModels, format: format)
        let data = try encoder.encode(people())
        let decoder = try DocumentDecoder(models: sampleModels)
        let reader: any DocumentReader = format == .yaml
            ? YAMLReader(text: String(decoding: data, as: UTF8.self), file: "people.yaml")
            : JSONReader(data: data, file: "people.json", layout: format == .jsonl ? .lines : .array)
        let decoded = try decoder.decode(Person.self, from: reader)
        try #require(decoded.count == 2)
        let (alice, bob) = (decoded[0], decoded[1])
        #expect(alice.bestFriend === bob && bob.bestFriend === alice)
        #expect(alice.dogs[0] === bob.dogs[0])
        #expect(bob.dogs.map(\.name) == ["Rex", "Fido"])
        #expect(alice.dogs[0].companion == ["ball", 2])
        #expect(alice.address == Address(city: "Oslo"))
        #expect(alice.createdAt == Self.created)
        // Writing what was read gives the same bytes.
        #expect(try encoder.encode(decoded) == data)
    }

    @Test func aCycleWithoutKeysIsWrittenWithReferences() throws {
        let carol = Person(name: "Carol")
        let dave = Person(name: "Dave")
        carol.bestFriend = dave
        dave.bestFriend = carol
        let encoder = try DocumentEncoder(models: sampleModels, format: .yaml)
        let data = try encoder.encode([carol])
        let decoded = try DocumentDecoder(models: sampleModels).decode(Person.self, yaml: String(decoding: data, as: UTF8.self))
        try #require(decoded.count == 1)
        #expect(decoded[0].bestFriend?.name == "Dave")
        #expect(decoded[0].bestFriend?.bestFriend === decoded[0])
    }
}
