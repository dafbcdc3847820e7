import Foundation
import Kura
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
