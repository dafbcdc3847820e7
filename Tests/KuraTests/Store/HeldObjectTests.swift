import Foundation
import Kura
import KuraTestSupport
import Testing

/// Nested documents of types without a primary key, imported over existing objects: each updates
/// the object its place holds (a to-one link, a list's or set's index, a map's key, a position in
/// a mixed value), so importing the same documents again changes nothing.
@Suite struct HeldObjectTests {
    static let schema = """
        schemaVersion: 1
        types:
          Toy:
            properties:
              name: string
          Dog:
            properties:
              name: string
              toy: Toy?
          Owner:
            primaryKey: id
            properties:
              id: int
              best: Dog?
              dogs: list<Dog>
              pack: set<Dog>
              byRole: map<Dog?>
              spots: list<Spot>
              anything: mixed
              things: list<mixed>
          Spot:
            embedded: true
            properties:
              city: string
        """

    /// Two owners sharing a dog by "$id"/"$ref", with every kind of place a dog without a key can be in.
    static let owners = """
        [{"id": 1, "best": {"name": "Rex", "toy": {"name": "ball"}}, "dogs": [{"$id": "fido", "name": "Fido"}, {"name": "Max"}],
         "pack": [{"name": "Ace"}, {"name": "Bo"}], "byRole": {"guard": {"name": "Kaiser"}, "none": null},
         "spots": [{"city": "Oslo"}, {"city": "Bergen"}], "anything": {"$type": "Dog", "name": "Mixie"},
         "things": [1, {"$type": "Dog", "name": "Listy"}, {"k": {"$type": "Dog", "name": "Deep"}}]},
        {"id": 2, "dogs": [{"$ref": "fido"}], "anything": [{"$type": "Dog", "name": "Nested"}]}]
        """

    let realm: Realm

    init() throws {
        realm = try Realm(path: try Fixtures.realmPath(), schema: try Schema(yaml: Self.schema))
    }

    func importing(_ text: String, mode: UpdatePolicy) throws -> ImportSummary {
        let importer = DocumentImporter(realm: realm, options: ImportOptions(type: "Owner", mode: mode))
        return try importer.run(JSONReader(bytes: Array(text.utf8), file: "owners.json"))
    }

    func export() throws -> String {
        let output = DocumentOutput()
        _ = try RealmExporter(realm: realm).run(to: DocumentWriter(schema: realm.schema, format: .jsonl, output: output))
        return String(decoding: output.bytes, as: UTF8.self)
    }

    func owner(_ id: Int64) throws -> DynamicObject {
        try #require(try realm.object(ofType: "Owner", forPrimaryKey: .int(id)))
    }

    /// The ids of the objects `property` of owner `id` holds, in order.
    func ids(_ id: Int64, _ property: String) throws -> [Int64] {
        try owner(id).objects(property).map(\.ref.id)
    }

    @Test(arguments: [UpdatePolicy.update, .modified, .replace])
    func importingTheSameDocumentsAgainChangesNothing(mode: UpdatePolicy) throws {
        _ = try importing(Self.owners, mode: .error)
        let before = try export()
        let dogs = try realm.count("Dog")
        let summary = try importing(Self.owners, mode: mode)
        #expect(summary.counts == [
            "Owner": ChangeCounts(unchanged: 2), "Dog": ChangeCounts(unchanged: 10), "Toy": ChangeCounts(unchanged: 1),
            "Spot": ChangeCounts(unchanged: 2),
        ])
        #expect(try export() == before)
        #expect(try realm.count("Dog") == dogs)
        #expect(try Fixtures.problems(realm) == [])
    }

    @Test(arguments: [UpdatePolicy.update, .modified])
    func aDocumentUpdatesTheObjectItsPlaceHolds(mode: UpdatePolicy) throws {
        _ = try importing(Self.owners, mode: .error)
        // Fido is Ann's alone from here on.
        _ = try importing(#"{"id": 2, "dogs": []}"#, mode: mode)
        let best = try #require(try owner(1).link("best"))
        let dogs = try ids(1, "dogs")
        let spots = try ids(1, "spots")
        let kaiser = try #require(try owner(1).values()["byRole"]?.mapValue?["guard"]?.objectRef)
        _ = try importing("""
            {"id": 1, "best": {"name": "Rex II", "toy": {"name": "rope"}}, "dogs": [{"name": "Fido"}, {"name": "Max II"}, {"name": "New"}],
             "byRole": {"guard": {"name": "Kaiser II"}, "none": {"name": "Nobody"}}, "spots": [{"city": "Trondheim"}]}
            """, mode: mode)
        // The link, the first two list elements, the map's guard and the first spot stay the objects
        // they were, with the new values; the third dog and the map's other entry are new.
        #expect(try owner(1).link("best")?.ref == best.ref)
        #expect(try best.value(forKey: "name") == "Rex II")
        #expect(try best.link("toy")?.value(forKey: "name") == "rope")
        #expect(try realm.count("Toy") == 1)
        let now = try ids(1, "dogs")
        #expect(Array(now.prefix(2)) == dogs && now.count == 3 && !dogs.contains(now[2]))
        #expect(try owner(1).objects("dogs").map { try $0.value(forKey: "name") } == ["Fido", "Max II", "New"])
        let roles = try #require(try owner(1).values()["byRole"]?.mapValue)
        #expect(roles["guard"]?.objectRef == kaiser)
        #expect(try realm.object(kaiser)?.value(forKey: "name") == "Kaiser II")
        #expect(roles["none"]?.objectRef != nil)
        // An embedded object left out of its list is deleted with it.
        #expect(try ids(1, "spots") == [spots[0]])
        #expect(try realm.count("Spot") == 1)
        #expect(try owner(1).objects("spots").first?.value(forKey: "city") == "Trondheim")
        // A dog left out of a list leaves it and stays in the realm, as in Realm.
        _ = try importing(#"{"id": 1, "dogs": [{"name": "Fido"}]}"#, mode: mode)
        #expect(try ids(1, "dogs") == [dogs[0]])
        #expect(try realm.object(ObjectRef(type: "Dog", id: dogs[1]))?.value(forKey: "name") == "Max II")
        #expect(try Fixtures.problems(realm) == [])
    }

    @Test func aSetsElementsAreMatchedInTheirStoredOrder() throws {
        _ = try importing(Self.owners, mode: .error)
        let pack = try ids(1, "pack")
        _ = try importing(#"{"id": 1, "pack": [{"name": "Ace"}, {"name": "Bob"}]}"#, mode: .modified)
        #expect(try ids(1, "pack") == pack)
        #expect(try owner(1).objects("pack").map { try $0.value(forKey: "name") } == ["Ace", "Bob"])
    }

    @Test func aMixedValueUpdatesTheObjectItLinksToAtTheSamePosition() throws {
        _ = try importing(Self.owners, mode: .error)
        let values = try owner(1).values()
        let mixie = try #require(values["anything"]?.objectRef)
        let listy = try #require(values["things"]?.listValue?[1].objectRef)
        let deep = try #require(values["things"]?.listValue?[2].mapValue?["k"]?.objectRef)
        _ = try importing("""
            {"id": 1, "anything": {"$type": "Dog", "name": "Mixie II"},
             "things": [1, {"$type": "Dog", "name": "Listy II"}, {"k": {"$type": "Dog", "name": "Deep II"}}]}
            """, mode: .update)
        let after = try owner(1).values()
        #expect(after["anything"]?.objectRef == mixie)
        #expect(after["things"]?.listValue?[1].objectRef == listy)
        #expect(after["things"]?.listValue?[2].mapValue?["k"]?.objectRef == deep)
        #expect(try [mixie, listy, deep].map { try realm.object($0)?.value(forKey: "name") } == ["Mixie II", "Listy II", "Deep II"])
    }

    /// A dog two owners share is updated by a document carrying "$id", as export writes it; a
    /// document without one for one owner's place leaves the shared dog to the other owner.
    @Test func aSharedObjectIsUpdatedOnlyByADocumentWithAnId() throws {
        _ = try importing(Self.owners, mode: .error)
        let fido = try ids(1, "dogs")[0]
        #expect(try ids(2, "dogs") == [fido])
        _ = try importing(#"{"id": 1, "dogs": [{"$id": "f", "name": "Fido II"}, {"name": "Max"}]}"#, mode: .modified)
        #expect(try ids(1, "dogs")[0] == fido && ids(2, "dogs") == [fido])
        #expect(try realm.object(ObjectRef(type: "Dog", id: fido))?.value(forKey: "name") == "Fido II")
        let summary = try importing(#"{"id": 2, "dogs": [{"name": "Rover"}]}"#, mode: .modified)
        #expect(summary.counts["Dog"] == ChangeCounts(inserted: 1))
        let rover = try #require(try ids(2, "dogs").first)
        #expect(rover != fido)
        #expect(try ids(1, "dogs")[0] == fido)
        #expect(try realm.object(ObjectRef(type: "Dog", id: fido))?.value(forKey: "name") == "Fido II")
        // Rover is Bo's alone now: the same document again updates it.
        #expect(try importing(#"{"id": 2, "dogs": [{"name": "Rover"}]}"#, mode: .modified).counts["Dog"] == ChangeCounts(unchanged: 1))
        #expect(try ids(2, "dogs") == [rover])
    }
}

/// Chains of objects without a key deeper than export nests them: export writes the rest of such a
/// chain as documents of their own, each linked from the one before by a reference that reaches
/// forward; the document carrying the `"$id"` updates the object the place held.
@Suite struct DeepChainTests {
    static let schema = """
        schemaVersion: 1
        types:
          Node:
            properties:
              name: string
              next: Node?
              branches: list<Node>
          Start:
            primaryKey: id
            properties:
              id: int
              first: Node?
        """

    let realm: Realm

    init() throws {
        realm = try Realm(path: try Fixtures.realmPath(), schema: try Schema(yaml: Self.schema))
    }

    /// A start whose chain of `length` nodes runs through `next`, each node also holding a branch.
    static func start(_ id: Int, length: Int, label: String = "node") -> Value {
        var chain: Value = ["name": .string("\(label) \(length)")]
        for index in stride(from: length - 1, through: 1, by: -1) {
            chain = ["name": .string("\(label) \(index)"), "next": chain, "branches": [["name": .string("branch \(index)")]]]
        }
        return ["id": .int(Int64(id)), "first": chain]
    }

    func write(_ documents: [Value], mode: UpdatePolicy) throws -> ImportSummary {
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: realm.schema, format: .jsonl, output: output)
        for document in documents { try writer.write(document, as: "Start") }
        try writer.finish()
        return try importing(output.bytes, mode: mode, type: "Start")
    }

    func importing(_ bytes: [UInt8], mode: UpdatePolicy, type: String? = nil) throws -> ImportSummary {
        let importer = DocumentImporter(realm: realm, options: ImportOptions(type: type, mode: mode))
        return try importer.run(JSONReader(bytes: bytes, file: "starts.jsonl"))
    }

    func export() throws -> [UInt8] {
        let output = DocumentOutput()
        _ = try RealmExporter(realm: realm).run(to: DocumentWriter(schema: realm.schema, format: .jsonl, output: output))
        return output.bytes
    }

    @Test(arguments: [UpdatePolicy.update, .modified, .replace])
    func anExportImportedAgainChangesNothing(mode: UpdatePolicy) throws {
        _ = try write([Self.start(1, length: 150), Self.start(2, length: 3)], mode: .error)
        let exported = try export()
        #expect(String(decoding: exported, as: UTF8.self).contains(#"{"$ref":"#))
        let nodes = try realm.count("Node")
        let summary = try importing(exported, mode: mode)
        #expect(summary.counts == ["Start": ChangeCounts(unchanged: 2), "Node": ChangeCounts(unchanged: nodes)])
        #expect(try realm.count("Node") == nodes)
        #expect(try export() == exported)
        #expect(try Fixtures.problems(realm) == [])
    }

    @Test func aChangedNodeBeyondTheNestingIsUpdatedInPlace() throws {
        _ = try write([Self.start(1, length: 150)], mode: .error)
        let nodes = try realm.count("Node")
        let exported = String(decoding: try export(), as: UTF8.self)
        let changed = exported.replacingOccurrences(of: #""name":"node 140""#, with: #""name":"node one-forty""#)
        #expect(changed != exported)
        let summary = try importing(Array(changed.utf8), mode: .update)
        #expect(summary.counts == ["Start": ChangeCounts(unchanged: 1), "Node": ChangeCounts(updated: 1, unchanged: nodes - 1)])
        #expect(try realm.count("Node") == nodes)
        #expect(String(decoding: try export(), as: UTF8.self) == changed)
    }

    @Test func aCopyRunAgainChangesNothing() throws {
        _ = try write([Self.start(1, length: 150), Self.start(2, length: 70)], mode: .error)
        let destination = try Realm(path: try Fixtures.realmPath(), schema: realm.schema)
        let options = CopyOptions(type: "Start", mode: .update)
        _ = try RealmCopier(source: realm, destination: destination, options: options).run()
        let again = try RealmCopier(source: realm, destination: destination, options: options).run()
        let nodes = try realm.count("Node")
        #expect(again == ["Start": ChangeCounts(unchanged: 2), "Node": ChangeCounts(unchanged: nodes)])
        #expect(try destination.count("Node") == nodes)
    }
}

extension Value {
    fileprivate var objectRef: ObjectRef? {
        if case .object(let ref) = self { return ref }
        return nil
    }

    fileprivate var listValue: [Value]? {
        if case .list(let items) = self { return items }
        return nil
    }

    fileprivate var mapValue: [String: Value]? {
        if case .map(let entries) = self { return entries }
        return nil
    }
}
