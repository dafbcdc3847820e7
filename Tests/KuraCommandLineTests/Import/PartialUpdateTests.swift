import Foundation
import Kura
import KuraTestSupport
import Testing

/// `update` and `modified` imports leave out what a document leaves out (Realm's update
/// policies): a required property missing from a document of an existing object keeps its stored
/// value; it is an error only for a new object, and always under `insert` and `replace`.
@Suite struct PartialUpdateTests {
    static let schema = """
        schemaVersion: 1
        types:
          Item:
            primaryKey: id
            properties:
              id: int
              intCol: int
              name: string
              note: string?
              owner: Owner?
              parts: list<Owner>
              place: Place?
              spots: list<Place>
          Place:
            embedded: true
            properties:
              city: string
              zip: string?
          Owner:
            primaryKey: key
            properties:
              key: string
              level: int
              label: string
        """

    let realm: Realm

    init() throws {
        realm = try Realm(path: try Fixtures.realmPath(), schema: try Schema(yaml: Self.schema))
        let seed = """
            {"id": 1, "intCol": 10, "name": "one", "note": "n", "owner": {"key": "a", "level": 5, "label": "A"},
             "parts": [{"key": "b", "level": 6, "label": "B"}], "place": {"city": "Oslo", "zip": "0150"},
             "spots": [{"city": "Bergen"}]}
            """
        _ = try importing(seed, mode: .error)
    }

    func importing(_ text: String, mode: UpdatePolicy, onError: ImportOptions.ErrorPolicy = .stop) throws -> ImportSummary {
        let importer = DocumentImporter(realm: realm, options: ImportOptions(type: "Item", mode: mode, onError: onError))
        return try importer.run(JSONReader(bytes: Array(text.utf8), file: "items.json"))
    }

    func values(_ type: String, _ key: Value) throws -> [String: Value]? {
        try realm.object(ofType: type, forPrimaryKey: key)?.values()
    }

    func item(_ key: Value, _ property: String) throws -> Value? {
        try realm.object(ofType: "Item", forPrimaryKey: key)?.value(forKey: property)
    }

    /// The errors an import of `text` fails with, one line each.
    func failure(_ text: String, mode: UpdatePolicy) -> String {
        do {
            _ = try importing(text, mode: mode)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [UpdatePolicy.update, .modified])
    func anExistingObjectKeepsTheRequiredPropertiesADocumentLeavesOut(mode: UpdatePolicy) throws {
        let summary = try importing(#"{"id": 1, "name": "uno"}"#, mode: mode)
        #expect(summary.counts["Item"]?.updated == 1)
        let item = try #require(try realm.object(ofType: "Item", forPrimaryKey: 1))
        #expect(try item["intCol"] == 10)
        #expect(try item["name"] == "uno")
        #expect(try item["note"] == "n")
        #expect(try Fixtures.problems(realm) == [])
    }

    @Test(arguments: [UpdatePolicy.update, .modified])
    func aNestedLinkToAnExistingKeyedObjectKeepsWhatItLeavesOut(mode: UpdatePolicy) throws {
        // A nested document, in a to-one link and in a list, and a positional document for the top level.
        _ = try importing(#"{"id": 1, "owner": {"key": "a", "label": "AA"}, "parts": [{"key": "b"}, ["a"]]}"#, mode: mode)
        #expect(try values("Owner", "a") == ["key": "a", "level": 5, "label": "AA"])
        #expect(try values("Owner", "b") == ["key": "b", "level": 6, "label": "B"])
        #expect(try item(1, "intCol") == 10)
        _ = try importing(#"[[1]]"#, mode: mode)
        #expect(try item(1, "name") == "one")
    }

    /// An embedded object is updated in place when its parent has one (as `update` leaves its other
    /// optional properties), so it keeps what it leaves out too; a new one needs it.
    @Test(arguments: [UpdatePolicy.update, .modified])
    func anEmbeddedObjectUpdatedInPlaceKeepsWhatItLeavesOut(mode: UpdatePolicy) throws {
        _ = try importing(#"{"id": 1, "place": {"zip": "0151"}}"#, mode: mode)
        let place = try #require(try realm.object(ofType: "Item", forPrimaryKey: 1)?.link("place"))
        #expect(try place.values() == ["city": "Oslo", "zip": "0151"])
        #expect(failure(#"{"id": 2, "intCol": 2, "name": "two", "place": {"zip": "1"}}"#, mode: mode)
            == "items.json:1:48: error: $[0].place: missing required property 'city' (string)")
        #expect(try realm.count("Place") == 2)
        // A list's embedded objects are updated in place, index by index; one past the end is new
        // and needs what it leaves out.
        _ = try importing(#"{"id": 1, "spots": [{"zip": "5003"}]}"#, mode: mode)
        let spot = try #require(try realm.object(ofType: "Item", forPrimaryKey: 1)?.objects("spots").first)
        #expect(try spot.values() == ["city": "Bergen", "zip": "5003"])
        #expect(failure(#"{"id": 1, "spots": [{"zip": "5003"}, {"zip": "5004"}]}"#, mode: mode)
            == "items.json:1:38: error: $[0].spots[1]: missing required property 'city' (string)")
    }

    @Test(arguments: [UpdatePolicy.update, .modified])
    func aNewObjectStillNeedsItsRequiredProperties(mode: UpdatePolicy) throws {
        #expect(failure(#"{"id": 2, "name": "two"}"#, mode: mode) == "items.json:1:1: error: $[0]: missing required property 'intCol' (int)")
        #expect(try realm.count("Item") == 1)
    }

    @Test(arguments: [UpdatePolicy.update, .modified])
    func aNewNestedObjectStillNeedsItsRequiredProperties(mode: UpdatePolicy) throws {
        // Every missing property of the new owner is named, at its document and path.
        let text = """
            {"id": 1,
             "owner": {"key": "z"}}
            """
        #expect(failure(text, mode: mode) == """
            items.json:2:11: error: $[0].owner: missing required property 'level' (int)
            items.json:2:11: error: $[0].owner: missing required property 'label' (string)
            """)
        #expect(try item(1, "owner") != nil)
        #expect(try realm.count("Owner") == 2)
    }

    @Test(arguments: [UpdatePolicy.error, .replace])
    func insertAndReplaceRefuseAMissingRequiredProperty(mode: UpdatePolicy) throws {
        #expect(failure(#"{"id": 1, "name": "uno"}"#, mode: mode) == "items.json:1:1: error: $[0]: missing required property 'intCol' (int)")
        #expect(try item(1, "name") == "one")
    }

    @Test func skipRejectsOnlyTheNewObjectsThatLackARequiredProperty() throws {
        let text = """
            {"id": 1, "name": "uno"}
            {"id": 3, "name": "three"}
            {"id": 4, "name": "four", "intCol": 4}
            """
        var rejected: [[String]] = []
        let importer = DocumentImporter(realm: realm, options: ImportOptions(type: "Item", mode: .modified, onError: .skip))
        importer.onReject = { _, messages in rejected.append(messages) }
        let summary = try importer.run(JSONReader(bytes: Array(text.utf8), file: "items.jsonl", layout: .lines))
        #expect(summary.counts["Item"] == ChangeCounts(inserted: 1, updated: 1, unchanged: 0))
        #expect(rejected == [["items.jsonl:2:1: error: $[1]: missing required property 'intCol' (int)"]])
        #expect(try item(1, "intCol") == 10)
    }

    @Test func theCommandLineUpdatesAnExistingObjectFromAPartialDocument() throws {
        let folder = try Fixtures.temporaryDirectory()
        let input = folder.appendingPathComponent("items.yaml")
        try Data("id: 1\nname: uno\n---\nid: 5\nname: five\n".utf8).write(to: input)
        let kura = Fixtures.executable("kura")
        let path = realm.configuration.path
        let result = try Fixtures.run(kura, ["import", path, input.path, "--type", "Item", "--mode", "update"])
        #expect(result.status == 65)
        #expect(result.stderr == "kura: \(input.path):4:1: error: $[1]: missing required property 'intCol' (int)\n")
        let fixed = try Fixtures.run(kura, ["import", path, input.path, "--type", "Item", "--mode", "update", "--on-error", "skip"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(try item(1, "name") == "uno")
    }
}
