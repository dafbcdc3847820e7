import Foundation
import Kura
import KuraTestSupport
import Testing
import Yams

/// `Schema.json`, written from the model, is byte for byte what reading the schema's YAML and
/// writing each node as JSON gives (the reference below), for every kind of type, property and default.
@Suite struct SchemaJSONTests {
    /// The YAML text read by Yams and written node by node as JSON.
    static func reference(_ yaml: String) throws -> String {
        guard let node = try Yams.compose(yaml: yaml) else { return "{}" }
        return json(of: node)
    }

    private static func json(of node: Node) -> String {
        switch node {
        case .mapping(let mapping):
            "{" + mapping.map { key, value in "\(quoted(key.string ?? "")):\(json(of: value))" }.joined(separator: ",") + "}"
        case .sequence(let sequence):
            "[" + sequence.map { json(of: $0) }.joined(separator: ",") + "]"
        case .scalar(let scalar):
            scalarJSON(node, text: scalar.string)
        case .alias:
            "null"
        }
    }

    private static func scalarJSON(_ node: Node, text: String) -> String {
        let tag = node.tag
        if tag == Yams.Tag(.null) { return "null" }
        if tag == Yams.Tag(.bool), let value = node.bool { return value ? "true" : "false" }
        if tag == Yams.Tag(.int), let value = node.int { return String(value) }
        if tag == Yams.Tag(.float), let value = node.float, value.isFinite { return String(value) }
        return quoted(text)
    }

    private static func quoted(_ text: String) -> String { JSONString.literal(text) }

    static let schemas = [
        """
        schemaVersion: 7
        types:
          Log:
            asymmetric: true
            properties:
              message: string
              at: { type: date, default: "2024-01-02T03:04:05.678Z" }
          Item:
            primaryKey: code
            properties:
              code: { type: uuid, default: uuid }
              label: { type: string, default: "it's \\"new\\"\\n", indexed: true }
              price: { type: decimal?, default: "1.50" }
              weight: { type: float, default: 2.5 }
              ratio: { type: double, default: 1e300 }
              whole: { type: double, default: 3 }
              stock: { type: int, default: -3, renamedFrom: quantity }
              raw: { type: data, default: !!binary AAEC }
              ref: { type: objectId?, default: 507f1f77bcf86cd799439011 }
              anything: { type: mixed, default: true }
              nothing: { type: mixed, default: null }
              when: { type: date, default: now }
              sizes: list<int?>
              related: map<Item?>
              tags: set<string>
          Counter:
            primaryKey: serial
            properties:
              serial: { type: int, autoIncrement: true }
          Part:
            embedded: true
            properties:
              "yes": { type: bool, default: false }
              "no": int?
          Owner:
            primaryKey: "on"
            properties:
              "on": string
              parts: list<Part>
              holders: list<Holder>
          Holder:
            properties:
              owners: { linkingObjects: Owner.holders }
        """
    ]

    @Test func theJSONIsWhatReadingTheYAMLGives() throws {
        var texts = Self.schemas
        texts.append(try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml"), encoding: .utf8))
        // A schema without types, which no schema file gives, writes `types:` with nothing: null.
        let schemas = try texts.map { try Schema(yaml: $0) } + [Schema(version: 0, types: [])]
        for schema in schemas {
            #expect(schema.json == (try Self.reference(schema.yaml)), "\(schema.yaml)")
        }
    }

    @Test func theSampleSchemaAsJSON() throws {
        let schema = try Schema(yaml: "schemaVersion: 2\ntypes:\n  Dog:\n    primaryKey: name\n    properties:\n      name: string\n      age: { type: int, default: 3, indexed: true }\n")
        #expect(schema.json == #"{"schemaVersion":2,"types":{"Dog":{"primaryKey":"name","properties":{"name":"string","age":{"type":"int","default":3,"indexed":true}}}}}"#)
    }
}
