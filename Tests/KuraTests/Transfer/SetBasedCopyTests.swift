import Foundation
import KuraTestSupport
import Testing

// @testable to turn the set-based copy off and compare it with the object-by-object copy.
@testable import Kura

/// The whole-realm copy made in SQL between realm files: ids shifted past a destination's own
/// objects, mixed tags renumbered, counters raised, and the same realm as the object-by-object copy.
@Suite struct SetBasedCopyTests {
    let folder: URL
    let source: String

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        (source, _) = try GraphFixture.makeRealm(in: folder)
    }

    /// A destination whose types are numbered differently from the source's (Node first) and that
    /// already holds keyless objects and nested mixed containers, so every id must move.
    func makeDestination(_ name: String) throws -> Realm {
        let reordered = try Schema(yaml: GraphFixture.schema.replacingOccurrences(of: "  Owner:", with: "  Zzz:")
            .replacingOccurrences(of: "  Spot:", with: "  Owner:\n    primaryKey: id\n    properties:\n"
                + "      id: { type: int, autoIncrement: true }\n      name: string\n      rival: Owner?\n"
                + "      nodes: list<Node>\n      favorite: mixed\n      byName: map<Node?>\n      seen: set<int>\n  Spot:"),
            file: "reordered.yaml")
        let realm = try Realm(path: folder.appendingPathComponent(name).path, schema: reordered)
        try realm.write {
            for index in 0..<3 {
                try realm.create("Node", value: ["name": .string("old\(index)"), "payload": .list([.int(1), .map(["k": .int(2)])])])
            }
        }
        return realm
    }

    func export(_ realm: Realm, type: String) throws -> String {
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: realm.schema, format: .jsonl, output: output)
        _ = try RealmExporter(realm: realm, options: ExportOptions(type: type)).run(to: writer)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    @Test func idsMovePastTheDestinationsAndTheCopyEqualsItsSource() throws {
        let from = try Realm(path: source)
        let bulk = try makeDestination("bulk.realm")
        let counts = try RealmCopier(source: from, destination: bulk).run()
        #expect(counts["Node"]?.inserted == 106)
        #expect(counts["Spot"]?.inserted == 2)

        // Row for row: each source node sits three ids higher, past the destination's own three.
        let lonely = try from.objects("Node", where: "name == 'lonely'")
        #expect(try bulk.objects("Node", where: "name == 'lonely'").map(\.ref.id) == lonely.map { $0.ref.id + 3 })
        // Links inside mixed values name the destination's type ids and the shifted object ids.
        let inMixed = try bulk.objects("Node", where: "name == 'inMixed'").first
        #expect(try inMixed?["payload"] == .object(ObjectRef(type: "Owner", id: 2)))
        let shared = try #require(try bulk.objects("Node", where: "name == 's'").first)
        #expect(try bulk.object(ofType: "Owner", forPrimaryKey: .int(1))?["favorite"] == .object(shared.ref))

        // Without the destination's own objects, the copy exports exactly as its source does.
        try bulk.write { _ = try bulk.delete("Node", where: "name BEGINSWITH 'old'") }
        for type in ["Owner", "Node"] {
            #expect(try export(bulk, type: type) == export(from, type: type))
        }
        #expect(try Fixtures.problems(bulk) == [])
    }

    @Test func theObjectByObjectCopyCountsTheSame() throws {
        let from = try Realm(path: source)
        let counts = try RealmCopier(source: from, destination: try makeDestination("bulk.realm")).run()
        var slow = RealmCopier(source: from, destination: try makeDestination("objects.realm"))
        slow.allowsSetBasedCopy = false
        #expect(try slow.run() == counts)
        let objectCopy = try Realm(path: folder.appendingPathComponent("objects.realm").path)
        #expect(try objectCopy.count("Node") == 109)
        #expect(try Fixtures.problems(objectCopy) == [])
    }

    @Test func countersContinueAfterTheCopiedObjects() throws {
        let bulk = try makeDestination("bulk.realm")
        _ = try RealmCopier(source: try Realm(path: source), destination: bulk).run()
        // The fixture deleted nothing, so Owner's next key follows the highest copied key.
        try bulk.write {
            let owner = try bulk.create("Owner", value: ["name": .string("New")])
            #expect(try owner["id"] == .int(4))
            let node = try bulk.create("Node", value: ["name": .string("new"), "payload": .list([.int(3)])])
            #expect(node.ref.id == 110)
        }
        #expect(try bulk.objects("Node", where: "name == 'old0'").first?["payload"] == .list([.int(1), .map(["k": .int(2)])]))
    }

    @Test func aKeyAlreadyInTheDestinationLeavesItToTheMode() throws {
        let destination = try makeDestination("clash.realm")
        try destination.write { _ = try destination.create("Owner", value: ["id": .int(2), "name": .string("Other Bo")]) }
        expectKuraError(.store) { try RealmCopier(source: try Realm(path: source), destination: destination).run() }
        #expect(try destination.count("Node") == 3)
        let updated = try RealmCopier(
            source: try Realm(path: source), destination: destination, options: CopyOptions(mode: .update)).run()
        #expect(updated["Owner"] == ChangeCounts(inserted: 2, updated: 1))
    }
}
