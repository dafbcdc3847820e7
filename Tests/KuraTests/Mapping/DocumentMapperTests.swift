import Foundation
import Kura
import KuraTestSupport
import Testing

/// Whole documents through the mapper: positions, every error of a document, unknown keys, and storing.
@Suite struct DocumentMapperTests {
    let schema: Schema

    init() throws { schema = try Fixtures.samplesSchema() }

    func documents(_ text: String, file: String = "people.json") throws -> [DocumentNode] {
        let reader = JSONReader(bytes: Array(text.utf8), file: file, layout: .array)
        var nodes: [DocumentNode] = []
        while let node = try reader.next() { nodes.append(node) }
        return nodes
    }

    @Test func anErrorNamesFileLineColumnPathExpectedAndFound() throws {
        let text = """
            [
              {"name": "Alice", "dogs": [{"name": "Rex", "age": 3}]},
              {"name": "Bob",
               "dogs": [{"name": "Fido", "age": 1},
                        {"name": "Maui", "age": "three"}]}
            ]
            """
        let nodes = try documents(text)
        let mapper = DocumentMapper(schema: schema, file: "people.json")
        #expect(throws: Never.self) { try mapper.map(nodes[0], as: "Person", path: "$[0]") }
        do {
            _ = try mapper.map(nodes[1], as: "Person", path: "$[1]")
            Issue.record("accepted a bad document")
        } catch {
            #expect(error.description == #"people.json:5:37: error: $[1].dogs[1].age: expected int, found string "three""#)
        }
    }

    @Test func aBadDocumentReportsAllItsErrorsUpToTheLimit() throws {
        let text = #"[{"name": 5, "dogs": [{"age": 1.5}, {"name": "ok", "age": 2, "citiesVisited": "Oslo"}], "bestFriend": true}]"#
        let node = try #require(try documents(text).first)
        do {
            _ = try DocumentMapper(schema: schema, file: "p.json").map(node, as: "Person", path: "$[0]")
            Issue.record("accepted a bad document")
        } catch {
            #expect(error.allErrors.map(\.description) == [
                "p.json:1:11: error: $[0].name: expected string, found number 5",
                "p.json:1:31: error: $[0].dogs[0].age: expected int, found number 1.5",
                "p.json:1:23: error: $[0].dogs[0]: missing required property 'name' (string)",
                #"p.json:1:79: error: $[0].dogs[1].citiesVisited: expected set<string>, found string "Oslo""#,
                "p.json:1:103: error: $[0].bestFriend: expected int, found bool true",
            ])
        }
        do {
            _ = try DocumentMapper(schema: schema, options: MappingOptions(maxErrors: 2), file: "p.json")
                .map(node, as: "Person", path: "$[0]")
        } catch {
            #expect(error.allErrors.count == 2)
            #expect(error.moreErrors)
        }
    }

    @Test func unknownKeysAreCountedOrRefused() throws {
        let node = try #require(try documents(#"[{"name": "Ann", "nickname": "A", "age": 40, "$id": "p1"}]"#).first)
        let mapped = try DocumentMapper(schema: schema, file: "p.json").map(node, as: "Person")
        #expect(mapped.unknownKeys == 2)
        #expect(mapped.value == ["name": "Ann", "$id": "p1"])
        do {
            _ = try DocumentMapper(schema: schema, options: MappingOptions(rejectUnknownKeys: true), file: "p.json").map(node, as: "Person")
            Issue.record("unknown keys were accepted")
        } catch {
            #expect(error.allErrors.map(\.description) == [
                "p.json:1:18: error: $: unknown property 'nickname' for Person",
                "p.json:1:35: error: $: unknown property 'age' for Person",
            ])
        }
    }

    @Test func positionalDocumentsFollowSchemaOrderWithoutBacklinks() throws {
        let node = try #require(try documents(#"[["Rex", 3, null, "Oslo", ["Oslo"], {"Oslo": "Frogner"}, 7, {"name": "Ball"}]]"#).first)
        let mapped = try DocumentMapper(schema: schema, file: "d.json").map(node, as: "Dog")
        #expect(mapped.value == [
            "name": "Rex", "age": 3, "color": nil, "currentCity": "Oslo", "citiesVisited": ["Oslo"],
            "favoriteParksByCity": ["Oslo": "Frogner"], "companion": 7, "favoriteToy": ["name": "Ball"],
        ])
    }

    @Test func mappedDocumentsStoreAndReadBackInARealm() throws {
        let text = """
            [{"id": 7, "name": "Alice", "address": {"city": "Tokyo", "country": "JP"},
              "createdAt": {"$date": "2024-05-01T00:00:00.000Z"},
              "dogs": [{"name": "Rex", "age": 3, "citiesVisited": ["Tokyo", "Tokyo", "Kyoto"],
                        "favoriteParksByCity": {"Tokyo": "Ueno"}, "companion": {"kind": "cat", "lives": 9},
                        "favoriteToy": {"name": "Rope"}}]},
             {"name": "Bob", "bestFriend": 7}]
            """
        let realm = try Realm(path: try Fixtures.realmPath(), schema: schema)
        let mapper = DocumentMapper(schema: schema, file: "people.json")
        try realm.write {
            for (index, node) in try documents(text).enumerated() {
                try realm.create("Person", value: try mapper.map(node, as: "Person", path: "$[\(index)]").value)
            }
        }
        let alice = try #require(try realm.object(ofType: "Person", forPrimaryKey: 7))
        let bob = try #require(try realm.object(ofType: "Person", forPrimaryKey: 8))
        #expect(try bob.link("bestFriend") == alice)
        #expect(try alice.link("address")?["city"] == "Tokyo")
        let rex = try alice.objects("dogs")[0]
        #expect(try rex["citiesVisited"] == ["Tokyo", "Kyoto"])
        #expect(try rex["companion"] == ["kind": "cat", "lives": 9])
        #expect(try rex.link("favoriteToy")?["name"] == "Rope")
        guard case .date(let created) = try alice["createdAt"] else {
            Issue.record("createdAt is not a date")
            return
        }
        #expect(DateFormatting.iso8601(created) == "2024-05-01T00:00:00.000Z")
    }

    @Test func yamlTimestampsBinaryAnchorsAndAliasesMap() throws {
        let yaml = """
            ---
            name: Alice
            createdAt: 2024-05-01T00:00:00Z
            dogs:
              - &rex {name: Rex, age: 3, companion: !!binary AAEC}
              - *rex
            bestFriend: &bob {id: 2, name: Bob}
            """
        let node = try #require(try YAMLReader(text: yaml, file: "people.yaml").next())
        let mapped = try DocumentMapper(schema: schema, file: "people.yaml").map(node, as: "Person")
        #expect(mapped.value == [
            "name": "Alice",
            "createdAt": .date(Date(timeIntervalSince1970: 1_714_521_600)),
            "dogs": [["name": "Rex", "age": 3, "companion": .data(Data([0, 1, 2])), "$id": "rex"], ["$ref": "rex"]],
            "bestFriend": ["id": 2, "name": "Bob", "$id": "bob"],
        ])
        let bad = try #require(try YAMLReader(text: "name: Ann\ncreatedAt: yesterday\n", file: "p.yaml").next())
        do {
            _ = try DocumentMapper(schema: schema, file: "p.yaml").map(bad, as: "Person")
            Issue.record("a string date was accepted")
        } catch {
            #expect(error.description == #"p.yaml:2:12: error: $.createdAt: expected date, found string "yesterday""#)
        }
    }

    /// Past a type's 64th property the mapper marks given properties in an array, not a word: a
    /// repeated key and a missing required property there are caught as they are below it.
    @Test func propertiesPastTheSixtyFourthAreTrackedToo() throws {
        let names = (0..<100).map { "p\($0)" }
        let properties = names.map { "      \($0): int" }.joined(separator: "\n")
        let wide = try Schema(yaml: "types:\n  Wide:\n    properties:\n\(properties)\n")
        let mapper = DocumentMapper(schema: wide, file: "w.json")
        let complete = "{" + names.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}"
        let mapped = try mapper.map(try #require(try documents("[\(complete)]").first), as: "Wide")
        guard case .map(let fields) = mapped.value else { throw CancellationError() }
        #expect(fields.count == 100 && fields["p99"] == .int(99) && fields["p64"] == .int(64))

        let given = names.filter { $0 != "p90" }.map { "\"\($0)\": 1" } + [#""p70": 2"#, #""p3": 3"#]
        let node = try #require(try documents("[{" + given.joined(separator: ", ") + "}]").first)
        do {
            _ = try mapper.map(node, as: "Wide", path: "$[0]")
            Issue.record("accepted a bad document")
        } catch {
            let errors = error.allErrors.map(\.description)
            #expect(errors.count == 3)
            #expect(errors.contains { $0.hasSuffix("error: $[0]: duplicate key 'p70'") })
            #expect(errors.contains { $0.hasSuffix("error: $[0]: duplicate key 'p3'") })
            #expect(errors.contains { $0.hasSuffix("error: $[0]: missing required property 'p90' (int)") })
        }
    }

    /// A key matches a property whose name is the same text once normalized, as Swift compares
    /// strings: KELVIN SIGN (U+212A) normalizes to "K", so "\u{212A}ey" is the property "Key".
    @Test func keysMatchPropertyNamesByCanonicalEquivalence() throws {
        let schema = try Schema(yaml: "types:\n  Lock:\n    properties:\n      Key: string\n      n: int?\n")
        let node = try #require(try documents("[{\"\u{212A}ey\": \"brass\", \"n\": 1, \"\u{212A}\": 2}]").first)
        let mapped = try DocumentMapper(schema: schema, file: "k.json").map(node, as: "Lock")
        #expect(mapped.unknownKeys == 1)
        #expect(mapped.value == .map(["Key": .string("brass"), "n": .int(1)]))
    }
}
