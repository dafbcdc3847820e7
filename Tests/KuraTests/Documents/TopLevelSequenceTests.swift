import Foundation
import Kura
import KuraTestSupport
import Testing

/// A top-level sequence means the same in JSON and YAML: a list of documents, each item an
/// object by property name or, itself an array, a positional document.
@Suite struct TopLevelSequenceTests {
    static let schema = """
        schemaVersion: 1
        types:
          Pet:
            primaryKey: name
            properties:
              name: string
              age: int
              note: string?
        """

    static let json = #"[{"name": "Rex", "age": 3}, ["Ivy", 2, "calm"], ["Bo", 1]]"#
    static let yaml = """
        - {name: Rex, age: 3}
        - [Ivy, 2, calm]
        - - Bo
          - 1
        """

    func imported(_ reader: some DocumentReader) throws -> (ImportSummary, [[String: Value]]) {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Schema(yaml: Self.schema))
        let summary = try DocumentImporter(realm: realm, options: ImportOptions(type: "Pet")).run(reader)
        return (summary, try realm.objects("Pet").map { try $0.values() })
    }

    @Test func theSameSequenceInJSONAndYAMLGivesTheSameObjects() throws {
        let (jsonSummary, fromJSON) = try imported(JSONReader(bytes: Array(Self.json.utf8), file: "pets.json"))
        let (yamlSummary, fromYAML) = try imported(YAMLReader(text: Self.yaml, file: "pets.yaml"))
        #expect(fromJSON == [
            ["name": "Rex", "age": 3, "note": nil], ["name": "Ivy", "age": 2, "note": "calm"], ["name": "Bo", "age": 1, "note": nil],
        ])
        #expect(fromYAML == fromJSON)
        #expect(jsonSummary.documents == 3)
        #expect(yamlSummary.documents == 3)
    }

    @Test func eachDocumentOfAYAMLStreamMayBeASequenceOfDocuments() throws {
        let yaml = "---\n- {name: Rex, age: 3}\n- [Ivy, 2]\n---\nname: Bo\nage: 1\n---\n[[Al, 4]]\n"
        let (summary, pets) = try imported(YAMLReader(text: yaml, file: "pets.yaml"))
        #expect(summary.documents == 4)
        #expect(pets.map { $0["name"] } == ["Rex", "Ivy", "Bo", "Al"])
    }

    @Test func messagesSayWhenADocumentIsPositional() throws {
        let json = #"[["Rex", 3, "x", 4], ["Ivy"], ["Bo", "three"]]"#
        let yaml = "- [Rex, 3, x, 4]\n- [Ivy]\n- [Bo, three]\n"
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Schema(yaml: Self.schema))
        var rejected: [String] = []
        for reader in [JSONReader(bytes: Array(json.utf8), file: "pets.json") as any DocumentReader,
                       YAMLReader(text: yaml, file: "pets.yaml")] {
            let importer = DocumentImporter(realm: realm, options: ImportOptions(type: "Pet", onError: .skip))
            importer.onReject = { _, messages in rejected += messages }
            _ = try importer.run(reader)
        }
        #expect(rejected == [
            "pets.json:1:18: error: $[0]: expected at most 3 values for a positional Pet document, found 4",
            "pets.json:1:22: error: $[1]: missing required property 'age' (int), value 2 of a positional Pet document",
            #"pets.json:1:38: error: $[2].age: expected int, found string "three" (value 2 of a positional Pet document)"#,
            "pets.yaml:1:15: error: $[0]: expected at most 3 values for a positional Pet document, found 4",
            "pets.yaml:2:3: error: $[1]: missing required property 'age' (int), value 2 of a positional Pet document",
            #"pets.yaml:3:8: error: $[2].age: expected int, found string "three" (value 2 of a positional Pet document)"#,
        ])
        #expect(try realm.count("Pet") == 0)
    }

    @Test func theDecoderReadsAYAMLSequenceAsDocumentsToo() throws {
        let decoder = try DocumentDecoder(models: [SequencePet.self])
        let fromYAML = try decoder.decode(SequencePet.self, yaml: "- {name: Rex, age: 3}\n- [Ivy, 2]\n")
        let fromJSON = try decoder.decode(SequencePet.self, json: Data(#"[{"name": "Rex", "age": 3}, ["Ivy", 2]]"#.utf8))
        #expect(fromYAML.map(\.name) == ["Rex", "Ivy"])
        #expect(fromJSON.map(\.name) == fromYAML.map(\.name))
    }
}

/// A model for `TopLevelSequenceTests`.
struct SequencePet: KuraObject {
    var name: String
    var age: Int
}
