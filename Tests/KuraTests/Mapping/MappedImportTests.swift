import Foundation
import KuraTestSupport
import Testing

// @testable to write a mapped object whose mapper read another layout of the schema.
@testable import Kura

/// An import hands the writer objects laid out by property position; creating the mapped values
/// through `Realm.create(_:value:)` goes by name. Both must store the same thing, for every place a
/// nested document can be: links, lists, sets and maps of links, embedded objects and their lists
/// and maps, and links inside mixed values.
@Suite struct MappedImportTests {
    static let schemaText = """
        schemaVersion: 1
        types:
          Pet:
            primaryKey: name
            properties:
              name: string
              age: int?
          Owner:
            primaryKey: id
            properties:
              id: int
              name: string
              pets: list<Pet>
              petsByRole: map<Pet?>
              favorites: set<Pet>
              home: Place?
              places: list<Place>
              placesByName: map<Place?>
              anything: mixed
              rival: Owner?
          Place:
            embedded: true
            properties:
              city: string
              nearby: list<Place>
        """

    static let first = """
        {"$id": "ann", "id": 1, "name": "Ann", "pets": [{"name": "Rex", "age": 3}, {"name": "Fido"}], "petsByRole": {"guard": {"name": "Max", "age": 5}, "none": null, "old": "Rex"}, "favorites": ["Rex", {"name": "Bella"}, "Rex"], "home": {"city": "Oslo", "nearby": [{"city": "Bergen", "nearby": []}]}, "places": [{"city": "Rome"}, {"city": "Pisa", "nearby": [{"city": "Lucca"}]}], "placesByName": {"b": {"city": "Bern"}, "z": null}, "anything": {"$type": "Pet", "name": "Kitty", "age": 1}, "rival": {"$ref": "bo"}}
        {"$id": "bo", "id": 2, "name": "Bo", "rival": {"$ref": "ann"}, "anything": [1, "two", {"k": true}], "pets": ["Max"]}
        """

    /// Ann's second embedded place and named place change; Bo is given as he is.
    static let second = """
        {"id": 1, "name": "Ann", "pets": [{"name": "Rex", "age": 3}, {"name": "Fido"}], "petsByRole": {"guard": {"name": "Max", "age": 5}, "none": null, "old": "Rex"}, "favorites": ["Rex", {"name": "Bella"}], "home": {"city": "Oslo", "nearby": [{"city": "Bergen", "nearby": []}]}, "places": [{"city": "Rome"}, {"city": "Pisa", "nearby": [{"city": "Siena"}]}], "placesByName": {"b": {"city": "Basel"}, "z": null}, "anything": {"$type": "Pet", "name": "Kitty", "age": 1}, "rival": 2}
        {"id": 2, "name": "Bo", "rival": 1, "anything": [1, "two", {"k": true}], "pets": ["Max"]}
        """

    let schema: Schema
    let imported: Realm
    let created: Realm

    init() throws {
        schema = try Schema(yaml: Self.schemaText, file: "owners.yaml")
        imported = try Realm(path: try Fixtures.realmPath("imported.realm"), schema: schema)
        created = try Realm(path: try Fixtures.realmPath("created.realm"), schema: schema)
    }

    /// Imports `text` (JSON Lines of owners) with `DocumentImporter`, the positional path.
    func importLines(_ text: String, mode: UpdatePolicy) throws -> ImportSummary {
        let importer = DocumentImporter(realm: imported, options: ImportOptions(type: "Owner", mode: mode))
        return try importer.run(JSONReader(bytes: Array(text.utf8), file: "owners.jsonl", layout: .lines))
    }

    /// Maps each line of `text` and creates its value by name, in one transaction with one scope;
    /// returns the transaction's counts.
    func createLines(_ text: String, mode: UpdatePolicy) throws -> [String: ChangeCounts] {
        let reader = JSONReader(bytes: Array(text.utf8), file: "owners.jsonl", layout: .lines)
        let mapper = DocumentMapper(schema: schema, file: "owners.jsonl")
        let scope = ReferenceScope()
        return try created.write {
            var line = 1
            while let node = try reader.next() {
                let mapped = try mapper.map(node, as: "Owner", path: "line \(line)")
                try created.create("Owner", value: mapped.value, update: mode, references: scope, path: "line \(line)")
                line += 1
            }
            return try created.changeCounts()
        }
    }

    func export(_ realm: Realm) throws -> String {
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: realm.schema, format: .jsonl, output: output)
        _ = try RealmExporter(realm: realm).run(to: writer)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    func owner(_ id: Int64, in realm: Realm) throws -> DynamicObject {
        try #require(try realm.object(ofType: "Owner", forPrimaryKey: .int(id)))
    }

    @Test func anImportStoresWhatCreatingTheMappedValuesStores() throws {
        let summary = try importLines(Self.first, mode: .error)
        let counts = try createLines(Self.first, mode: .error)
        #expect(summary.counts == counts)
        #expect(summary.counts["Pet"] == ChangeCounts(inserted: 5))
        #expect(try export(imported) == (try export(created)))
        #expect(try Fixtures.problems(imported) == [])

        // What the positional path stored, read back by name.
        let ann = try owner(1, in: imported)
        #expect(try ann.objects("pets").map { try $0["name"] } == ["Rex", "Fido"])
        #expect(Set(try ann.objects("favorites").map { try $0["name"] }) == ["Bella", "Rex"])
        #expect(try ann.link("home")?["city"] == "Oslo")
        #expect(try ann.objects("places").map { try $0["city"] } == ["Rome", "Pisa"])
        #expect(try ann.link("rival")?["name"] == "Bo")
        let values = try ann.values()
        guard case .map(let roles)? = values["petsByRole"], case .object(let guardRef)? = roles["guard"] else {
            Issue.record("petsByRole is \(String(describing: values["petsByRole"]))")
            return
        }
        #expect(roles["none"] == .null)
        #expect(guardRef.type == "Pet")
        guard case .object(let kitty)? = values["anything"] else {
            Issue.record("anything is \(String(describing: values["anything"]))")
            return
        }
        #expect(kitty.type == "Pet")
        #expect(try imported.count("Place") == 6)
    }

    @Test func aModifiedImportUpdatesEmbeddedElementsInPlaceAsCreatingDoes() throws {
        _ = try importLines(Self.first, mode: .error)
        _ = try createLines(Self.first, mode: .error)
        let summary = try importLines(Self.second, mode: .modified)
        let counts = try createLines(Self.second, mode: .modified)
        #expect(summary.counts == counts)
        #expect(summary.counts["Owner"] == ChangeCounts(updated: 1, unchanged: 1))
        #expect(try export(imported) == (try export(created)))
        let ann = try owner(1, in: imported)
        #expect(try ann.objects("places").last?.objects("nearby").map { try $0["city"] } == ["Siena"])
        #expect(try Fixtures.problems(imported) == [])
    }

    @Test func deletingAnOwnerWhoseMapOfEmbeddedObjectsHoldsANullDeletesItsPlaces() throws {
        _ = try importLines(Self.first, mode: .error)
        // Ann's places: home Oslo with Bergen, Rome, Pisa with Lucca, and Bern beside a null entry.
        try imported.write { try imported.delete(try owner(1, in: imported)) }
        #expect(try imported.count("Place") == 0)
        #expect(try imported.count("Owner") == 1)
        #expect(try Fixtures.problems(imported) == [])
    }

    @Test func aMapperThatReadAnotherLayoutOfTheTypeStillWritesByName() throws {
        // The same types with Owner's properties in reverse order: positions differ, names do not.
        let owner = try #require(schema[type: "Owner"])
        var reversed = schema
        reversed.types = schema.types.map { $0.name == "Owner" ? ObjectSchema(
            name: owner.name, properties: owner.properties.reversed(), primaryKey: owner.primaryKey) : $0 }
        let line = #"{"id": 7, "name": "Cy", "pets": [{"name": "Rex"}], "home": {"city": "Oslo"}, "anything": 2.5}"#
        let reader = JSONReader(bytes: Array(line.utf8), file: "cy.json")
        let node = try #require(try reader.next())
        let mapped = try DocumentMapper(schema: reversed, file: "cy.json").map(node, as: "Owner")
        try imported.write {
            try imported.create("Owner", mapped: mapped.object, update: .error, references: nil, path: "$")
        }
        let cy = try self.owner(7, in: imported)
        #expect(try cy["name"] == "Cy")
        #expect(try cy["anything"] == .double(2.5))
        #expect(try cy.link("home")?["city"] == "Oslo")
        #expect(try cy.objects("pets").map { try $0["name"] } == ["Rex"])
        #expect(try Fixtures.problems(imported) == [])
    }

    @Test func theLogIsWrittenBackWhileAWriteIsOpenAndWithoutOne() throws {
        // Opened read-only, the log must still take `sync_file_range`: an error here means the
        // import's writeback silently does nothing.
        #expect(imported.startWritingBackLog() == 0)  // no transaction yet: no log or an empty one
        try imported.write {
            try imported.create("Owner", value: ["id": 1, "name": "Ann"])
            #expect(FileManager.default.fileExists(atPath: imported.configuration.path + "-wal"))
            #expect(imported.startWritingBackLog() == 0)
        }
        let memory = try Realm(path: ":memory:", schema: schema)
        #expect(memory.startWritingBackLog() == 0)
    }
}
