import Foundation
import Kura
import KuraTestSupport
import Testing

/// Codable models decoded straight from JSON and YAML, without a realm.
@Suite struct DocumentDecoderTests {
    let decoder: DocumentDecoder

    init() throws { decoder = try DocumentDecoder(models: sampleModels) }

    @Test func sharedAndCyclicObjectsComeBackAsOneInstance() throws {
        let json = """
            [{"id": 1, "name": "Alice", "dogs": [{"$id": "rex", "name": "Rex", "age": 3, "citiesVisited": ["Oslo", "Oslo"]}],
              "bestFriend": 2, "address": {"city": "Oslo"}, "createdAt": {"$date": "2024-01-02T03:04:05.678Z"}},
             {"id": 2, "name": "Bob", "dogs": [{"$ref": "rex"}, {"name": "Fido", "age": 1, "companion": [1, "two"]}],
              "bestFriend": {"id": 1, "name": "Alice"}}]
            """
        let people = try decoder.decode(Person.self, json: Data(json.utf8), file: "people.json")
        try #require(people.count == 2)
        let (alice, bob) = (people[0], people[1])
        #expect(alice.bestFriend === bob)
        #expect(bob.bestFriend === alice)  // a nested document with an existing key is that object
        #expect(alice.dogs[0] === bob.dogs[0])
        #expect(alice.dogs[0].citiesVisited == ["Oslo"])
        #expect(bob.dogs[1].companion == [1, "two"])
        #expect(alice.address == Address(city: "Oslo"))
        #expect(alice.createdAt == Date(timeIntervalSince1970: 1_704_164_645.678))
    }

    @Test func yamlAnchorsShareObjects() throws {
        let yaml = """
            ---
            id: 1
            name: Alice
            dogs:
              - &rex {name: Rex, age: 3}
              - *rex
            ---
            id: 2
            name: Bob
            bestFriend: 1
            """
        let people = try decoder.decode(Person.self, yaml: yaml, file: "people.yaml")
        #expect(people.count == 2)
        #expect(people[0].dogs.count == 2)
        #expect(people[0].dogs[0] === people[0].dogs[1])
        #expect(people[1].bestFriend === people[0])
    }

    @Test func typeRulesAreTheMappersRules() throws {
        let json = #"[{"name": "Alice", "dogs": [{"name": "Rex", "age": "three"}]}]"#
        #expect {
            try decoder.decode(Person.self, json: Data(json.utf8), file: "people.json")
        } throws: { error in
            (error as? KuraError)?.description == #"people.json:1:52: error: $[0].dogs[0].age: expected int, found string "three""#
        }
    }

    @Test func unresolvedLinksAreErrors() throws {
        #expect {
            try decoder.decode(Person.self, json: Data(#"[{"id": 1, "name": "A", "bestFriend": 9}]"#.utf8), file: "p.json")
        } throws: { error in
            (error as? KuraError)?.description == "p.json:1:2: error: $[0].bestFriend: no Person with primary key 9 in this input"
        }
        #expect {
            try decoder.decode(Person.self, json: Data(#"[{"name": "A", "dogs": [{"$ref": "d"}]}]"#.utf8), file: "p.json")
        } throws: { error in
            (error as? KuraError)?.description
                == #"p.json:1:2: error: $[0].dogs[0]: {"$ref": "d"} names no document with "$id": "d" in this input"#
        }
        #expect {
            try decoder.decode(Person.self, json: Data(#"[{"$id": 1, "name": "A"}, {"$id": 1, "name": "B"}]"#.utf8), file: "p.json")
        } throws: { error in
            (error as? KuraError)?.description == #"p.json:1:27: error: $[1]: "$id": 1 is used by two documents"#
        }
    }
}
