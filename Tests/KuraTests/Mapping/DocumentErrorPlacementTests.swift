import Foundation
import Kura
import KuraTestSupport
import Testing

/// Errors of a document's values are placed at the value, and stay the document's own: under
/// `--on-error skip` the document is refused and the rest of the input goes in.
@Suite struct DocumentErrorPlacementTests {
    let realm: Realm

    init() throws { realm = try Realm(path: try Fixtures.realmPath(), schema: try Fixtures.samplesSchema()) }

    static let types = "types: Address, Dog, DogClub, DogToy, Person"

    /// The message a stop import of `text` ends with.
    func failure(_ text: String, file: String, type: String? = nil) -> String? {
        let bytes = Array(text.utf8)
        let reader: any DocumentReader = file.hasSuffix(".yaml") ? YAMLReader(bytes: bytes, file: file) : JSONReader(bytes: bytes, file: file)
        do {
            _ = try DocumentImporter(realm: realm, options: ImportOptions(type: type)).run([reader])
            return nil
        } catch {
            return "\(error)"
        }
    }

    static let typeTags: [(file: String, text: String, message: String)] = [
        ("t.json", #"[{"$type": "Person", "name": "A"}, {"name": "B", "$type": "Persn"}]"#,
         "t.json:1:59: error: $[1].$type: no type 'Persn' in the realm (did you mean 'Person'? \(types))"),
        ("t.jsonl", "{\"name\": \"A\", \"$type\": 3}\n",
         "t.jsonl:1:24: error: $[0].$type: expected a type name, found number 3"),
        ("t.json", #"{"$type": "Address", "city": "Oslo"}"#,
         "t.json:1:11: error: $[0].$type: Address is embedded: import its documents nested in their parents"),
        ("t.yaml", "name: A\n$type: Persn\n",
         "t.yaml:2:8: error: $[0].$type: no type 'Persn' in the realm (did you mean 'Person'? \(types))"),
        ("t.yaml", "- $type: Person\n  name: A\n- $type: [Person]\n  name: B\n",
         "t.yaml:3:10: error: $[1].$type: expected a type name, found array"),
    ]

    @Test(arguments: typeTags)
    func aBadTypeTagIsPlacedAtItsValue(_ example: (file: String, text: String, message: String)) {
        #expect(failure(example.text, file: example.file) == example.message)
    }
}

/// A YAML value the reader cannot accept is the error of the document that holds it, not of the file.
@Suite struct YAMLDocumentErrorTests {
    let realm: Realm

    init() throws { realm = try Realm(path: try Fixtures.realmPath(), schema: try Fixtures.samplesSchema()) }

    /// Imports `text` as people under `--on-error skip`: the names written and the rejects' messages.
    func skipImport(_ text: String) throws -> (names: [Value], rejected: [[String]]) {
        let importer = DocumentImporter(realm: realm, options: ImportOptions(type: "Person", onError: .skip))
        var rejected: [[String]] = []
        importer.onReject = { _, errors in rejected.append(errors) }
        _ = try importer.run(YAMLReader(text: text, file: "p.yaml"))
        return (try realm.objects("Person").map { try $0.value(forKey: "name") }, rejected)
    }

    /// Each value goes in the second of three documents, at line 2 column 8 of the sequence form.
    static let badValues: [(value: String, message: String)] = [
        ("2024-05-01T12:00:00.1234Z",
         "YAML timestamp '2024-05-01T12:00:00.1234Z' has digits below a millisecond, which a date cannot hold"),
        ("!!int abc", "YAML scalar 'abc' is not a valid !!int"),
        ("!!binary \"@@\"", "invalid base64 in YAML !!binary scalar"),
        (".nan", "YAML float '.nan' is not a finite number"),
        ("!custom x", "unsupported YAML tag '!custom'"),
        ("!!set {a: ~}", "unsupported YAML tag '!!set'"),
        ("*nowhere", "YAML alias '*nowhere' names no anchor defined before it"),
        ("{<<: {a: 1}}", "YAML merge keys are not supported"),
    ]

    @Test(arguments: badValues)
    func aBadValueRefusesItsDocumentOnly(_ example: (value: String, message: String)) throws {
        let column = example.value.hasPrefix("{<<") ? 8 + 1 : 8
        let sequence = "- name: Ann\n- bad: \(example.value)\n  name: Bob\n- name: Cid\n"
        let result = try skipImport(sequence)
        #expect(result.names == ["Ann", "Cid"])
        #expect(result.rejected == [["p.yaml:2:\(column): error: \(example.message)"]])

        let documents = "name: Dan\n---\nbad: \(example.value)\nname: Eve\n---\nname: Fay\n"
        let separate = try skipImport(documents)
        #expect(separate.names == ["Ann", "Cid", "Dan", "Fay"])
        #expect(separate.rejected == [["p.yaml:3:\(column - 2): error: \(example.message)"]])
    }

    @Test func aBadValueStopsAStopImportWithItsPosition() throws {
        let importer = DocumentImporter(realm: realm, options: ImportOptions(type: "Person"))
        #expect {
            try importer.run(YAMLReader(text: "- name: Ann\n- name: Bob\n  createdAt: 2024-05-01T12:00:00.1234Z\n", file: "p.yaml"))
        } throws: { error in
            "\(error)" == "p.yaml:3:14: error: YAML timestamp '2024-05-01T12:00:00.1234Z' has digits below a millisecond, which a date cannot hold"
        }
        #expect(try realm.count("Person") == 0)
    }

    @Test func itemsOfATopLevelSequenceShareTheirAnchors() throws {
        let text = """
            - &ann
              name: Ann
              dogs:
                - &rex {name: Rex, age: 3, citiesVisited: &cities [Oslo, Rome]}
            - name: &bob Bob
              bestFriend: *ann
              dogs: [*rex, {name: Fido, age: 2, citiesVisited: *cities}]
            - name: *bob
              bestFriend: *ann

            """
        _ = try DocumentImporter(realm: realm, options: ImportOptions(type: "Person")).run(YAMLReader(text: text, file: "p.yaml"))
        let people = try realm.objects("Person")
        #expect(try people.map { try $0.value(forKey: "name") } == ["Ann", "Bob", "Bob"])
        #expect(try people.map { try $0.link("bestFriend")?.value(forKey: "name") } == [nil, "Ann", "Ann"])
        #expect(try realm.count("Dog") == 2)
        let dogs = try people[1].objects("dogs")
        #expect(try dogs.map { try $0.value(forKey: "name") } == ["Rex", "Fido"])
        #expect(try dogs[1].value(forKey: "citiesVisited") == ["Oslo", "Rome"])
        #expect(try people[0].objects("dogs").first?.value(forKey: "name") == "Rex")
        #expect(try Fixtures.problems(realm) == [])
    }

    @Test func decodedModelsShareTheAnchorsOfASequenceToo() throws {
        let text = "- &ann\n  name: Ann\n  dogs: [&rex {name: Rex, age: 3}]\n- name: Bob\n  bestFriend: *ann\n  dogs: [*rex]\n"
        let people = try DocumentDecoder(models: sampleModels).decode(Person.self, yaml: text)
        #expect(people.map(\.name) == ["Ann", "Bob"])
        #expect(people[1].bestFriend === people[0])
        #expect(people[1].dogs.first === people[0].dogs.first)
    }

    @Test func anAliasBeforeItsAnchorIsRefusedAtTheAlias() throws {
        let text = "- name: Ann\n- name: *later\n- name: &later Cid\n"
        let result = try skipImport(text)
        #expect(result.names == ["Ann", "Cid"])
        #expect(result.rejected == [["p.yaml:2:9: error: YAML alias '*later' names no anchor defined before it"]])
        // Anchors do not reach across YAML documents, whatever their form.
        let apart = try skipImport("- name: &x Dan\n---\n- name: *x\n")
        #expect(apart.rejected == [["p.yaml:3:9: error: YAML alias '*x' names no anchor defined before it"]])
    }
}
