import Foundation
import Kura

/// A schema and a whole-realm input that use every feature an export must keep: links by key with a
/// cycle between keyed objects, a shared object without a key, a self-loop, a cycle that nothing
/// else reaches, links inside mixed values, embedded objects in embedded lists, sets, maps, every
/// typed scalar, and a chain too deep to nest.
package enum GraphFixture {
    package static let schema = """
        schemaVersion: 1
        types:
          Owner:
            primaryKey: id
            properties:
              id: { type: int, autoIncrement: true }
              name: string
              rival: Owner?
              nodes: list<Node>
              favorite: mixed
              byName: map<Node?>
              seen: set<int>
          Node:
            properties:
              name: string
              next: Node?
              peers: list<Node>
              tags: set<string>
              scores: map<double>
              payload: mixed
              extras: list<mixed>
              when: date?
              blob: data?
              price: decimal?
              oid: objectId?
              uid: uuid?
              spot: Spot?
          Spot:
            embedded: true
            properties:
              x: int
              y: int
              near: list<Spot>

        """

    package static let documents = #"""
        [
          {"$type": "Owner", "id": 1, "name": "Ann", "rival": 2, "seen": [3, 1, 2],
           "nodes": [{"$id": "shared", "name": "s", "tags": ["b", "a"], "scores": {"x": 1.5, "y": -0.25}},
                     {"$id": "loop", "name": "self", "next": {"$ref": "loop"}, "peers": [{"$ref": "loop"}, {"$ref": "shared"}]}],
           "favorite": {"$type": "Node", "$ref": "shared"},
           "byName": {"s": {"$ref": "shared"}, "none": null}},
          {"$type": "Owner", "id": 2, "name": "Bo", "rival": 1, "nodes": [{"$ref": "shared"}],
           "favorite": {"$type": "Owner", "$key": 1}},
          {"$type": "Owner", "id": 3, "name": "Gone"},
          {"$type": "Node", "name": "lonely", "when": {"$date": "2024-02-29T12:00:00.123Z"},
           "blob": {"$binary": {"base64": "AAEC/w==", "subType": "00"}}, "price": {"$numberDecimal": "12.50"},
           "oid": {"$oid": "507f1f77bcf86cd799439011"}, "uid": "3b241101-e2bb-4255-8caf-4136c566a962",
           "payload": {"list": [1, 2.5, "three", null, true, {"$date": "2020-01-01T00:00:00Z"}],
                       "deep": {"k": {"$uuid": "3b241101-e2bb-4255-8caf-4136c566a962"}}},
           "extras": [{"$type": "Node", "name": "inMixed", "payload": {"$type": "Owner", "$key": 2}}, 7, "x"],
           "spot": {"x": 1, "y": 2, "near": [{"x": 3, "y": 4, "near": []}]}},
          {"$type": "Node", "$id": "a", "name": "cycleA", "next": {"name": "cycleB", "next": {"$ref": "a"}}},
          \#(deepChain(length: 100))
        ]
        """#

    /// A head node followed by `length - 1` nodes linked by `next`, deeper than an export nests.
    package static func deepChain(length: Int) -> String {
        var text = ""
        for index in 0..<length {
            text += (index == 0 ? #"{"$type": "Node", "name": "chain0""# : #", "next": {"name": "chain\#(index)""#)
        }
        return text + String(repeating: "}", count: length)
    }

    /// Writes the schema and input into `folder`, creates `name` with the schema and imports the input
    /// through the library; returns the realm's path and the schema file's path.
    package static func makeRealm(in folder: URL, named name: String = "graph.realm") throws -> (realm: String, schema: String) {
        let schemaPath = folder.appendingPathComponent("graph.yaml").path
        try schema.write(toFile: schemaPath, atomically: true, encoding: .utf8)
        let realmPath = folder.appendingPathComponent(name).path
        let realm = try Realm(path: realmPath, schema: try Schema(contentsOfFile: schemaPath))
        _ = try DocumentImporter(realm: realm).run(JSONReader(data: Data(documents.utf8), file: "graph.json"))
        return (realmPath, schemaPath)
    }
}
