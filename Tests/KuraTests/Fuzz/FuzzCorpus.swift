import Foundation
@testable import Kura
import KuraTestSupport

/// The valid inputs the fuzzer mutates: the samples, the graph fixture in all three formats
/// (whole-realm documents with `$type`, `$id`/`$ref`, YAML anchors and aliases, every typed
/// wrapper, mixed values, maps, sets), and small documents with YAML tags and merge-free aliases.
enum FuzzCorpus {
    static func seeds() throws -> [FuzzSeed] {
        let samples = try Fixtures.samplesSchema()
        let graph = try Schema(yaml: GraphFixture.schema)
        var seeds: [FuzzSeed] = []
        func sample(_ name: String, _ type: String) throws {
            let url = Fixtures.packageRoot.appendingPathComponent("Samples/\(name)")
            seeds.append(FuzzSeed(bytes: Array(try Data(contentsOf: url)), schema: samples, type: type))
        }
        try sample("people.json", "Person")
        try sample("people.jsonl", "Person")
        try sample("friends.json", "Person")
        try sample("bad-people.json", "Person")
        try sample("dogs.yaml", "DogClub")
        for text in handWritten {
            seeds.append(FuzzSeed(bytes: Array(text.utf8), schema: samples, type: "Dog"))
        }
        let fixture = Array(GraphFixture.documents.utf8)
        seeds.append(FuzzSeed(bytes: fixture, schema: graph, type: "Node"))
        for format in [DocumentFormat.jsonl, .yaml] {
            seeds.append(FuzzSeed(bytes: try rewrite(fixture, schema: graph, as: format), schema: graph, type: "Node"))
        }
        return seeds
    }

    /// The fixture's documents mapped and written again in `format`, tagged with `$type`.
    private static func rewrite(_ json: [UInt8], schema: Schema, as format: DocumentFormat) throws -> [UInt8] {
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: schema, format: format, output: output)
        let reader = JSONReader(bytes: json, file: "graph.json", layout: .array)
        while let node = try reader.next() {
            guard let type = DocumentMapper.declaredType(of: node) else { continue }
            try writer.write(try DocumentMapper(schema: schema, file: "graph.json").map(node, as: type).value, as: type, tagged: true)
        }
        try writer.finish()
        return output.bytes
    }

    /// Dogs of the samples schema using what the files above do not: YAML tags, timestamps,
    /// binary, anchors on scalars and lists, flow and block styles, and JSON wrappers in mixed.
    static let handWritten = [
        """
        ---
        name: Rex
        age: 3
        color: !!str 42
        citiesVisited: &cities [Oslo, Bergen, "Tromsø"]
        favoriteParksByCity: {Oslo: Frognerparken, "key with space": 'quoted '' text'}
        companion: {list: *cities, when: 2024-02-29T12:00:00.5Z, blob: !!binary AAEC/w==, n: 1.5e3, big: 123456789012345678901234567890, none: ~, yes: true}
        favoriteToy: {name: &toy duck}
        currentCity: *toy
        ---
        - Fido
        - 4
        - null
        - null
        - [a, a, b]
        - {}
        - [1, [2, [3, {x: y}]]]
        - [ball]
        ...
        """,
        #"""
        [{"name": "Mixed", "age": -9223372036854775808, "citiesVisited": null,
          "companion": [{"$numberDecimal": "12.50"}, {"$date": {"$numberLong": "1700000000000"}}, {"$uuid": "3b241101-e2bb-4255-8caf-4136c566a962"},
                        {"$oid": "507f1f77bcf86cd799439011"}, {"$numberLong": "7"}, {"$numberDouble": "-Infinity"}, "\u00e9\ud83d\ude00\t\"\\\/", 0.1, -0.0, 1E-7],
          "favoriteParksByCity": {"": "empty key", "\u0000": "nul key"}},
         {"name": "Deep", "age": 0, "companion": {"a": {"b": {"c": [[[[]]]]}}}, "favoriteToy": ["positional toy"]}]
        """#,
        """
        %YAML 1.1
        --- &dog
        name: "Anchored \\u00e9 \\x41"
        age: 0x1F
        companion: !!float 1
        favoriteParksByCity:
          ? plain key
          : |
            block
            text
          folded: >-
            folded
            text
        """,
    ]
}
