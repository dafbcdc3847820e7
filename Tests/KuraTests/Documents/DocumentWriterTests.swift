import Foundation
import Kura
import KuraTestSupport
import Testing

/// Documents written as JSON, pretty JSON, JSON Lines and YAML read back through the readers and
/// the mapper as the values that were written, and write again as the same bytes.
@Suite struct DocumentWriterTests {
    /// The ways documents are written: a format, and for JSON whether it is pretty.
    enum Shape: CaseIterable, CustomStringConvertible {
        case json, prettyJSON, jsonLines, yaml

        var format: DocumentFormat {
            switch self {
            case .json, .prettyJSON: .json
            case .jsonLines: .jsonl
            case .yaml: .yaml
            }
        }

        var description: String { "\(self == .prettyJSON ? "pretty " : "")\(format)" }
    }

    static let schemaText = """
        schemaVersion: 1
        types:
          Everything:
            primaryKey: id
            properties:
              id: int
              flag: bool
              count: int
              single: float
              real: double
              text: string
              when: date
              blob: data
              amount: decimal
              oid: objectId
              token: uuid
              anything: mixed
              maybeFlag: bool?
              maybeCount: int?
              maybeSingle: float?
              maybeReal: double?
              maybeText: string?
              maybeWhen: date?
              maybeBlob: data?
              maybeAmount: decimal?
              maybeOid: objectId?
              maybeToken: uuid?
              ints: list<int>
              maybeStrings: list<string?>
              reals: set<double>
              singles: list<float>
              dates: list<date>
              blobs: list<data>
              amounts: list<decimal>
              oids: set<objectId>
              tokens: list<uuid>
              tags: set<string>
              scores: map<int>
              notes: map<string?>
              mixedList: list<mixed>
              mixedMap: map<mixed>
              child: Child?
              children: list<Child>
              childSet: set<Child>
              childMap: map<Child?>
              address: Address?
              addresses: list<Address>
              addressMap: map<Address?>
              friend: Everything?
              friends: list<Everything>
              named: Named?
              namedList: list<Named>
              byToken: ByToken?
          Child:
            properties:
              name: string
              age: int?
              toy: Child?
              parents: { linkingObjects: Everything.children }
          Address:
            embedded: true
            properties:
              street: string?
              city: string?
          Named:
            primaryKey: name
            properties:
              name: string
          ByToken:
            primaryKey: token
            properties:
              token: uuid
          ByOid:
            primaryKey: oid
            properties:
              oid: objectId
          Holder:
            properties:
              byOid: ByOid?
              single: float
          Box:
            properties:
              anything: mixed
              next: Box?
          Pair:
            properties:
              first: Child?
              second: Child?
              address: Address?
              note: mixed
        """

    let schema: Schema

    init() throws { schema = try Schema(yaml: Self.schemaText) }

    // MARK: Helpers

    /// The text `documents` are written as.
    func write(_ documents: [(Value, String)], _ shape: Shape) throws -> String {
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: schema, format: shape.format, pretty: shape == .prettyJSON, output: output)
        for (value, type) in documents { try writer.write(value, as: type) }
        try writer.finish()
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// The documents of `text`, parsed and mapped.
    func read(_ text: String, _ shape: Shape, types: [String]) throws -> [Value] {
        var nodes: [DocumentNode] = []
        switch shape.format {
        case .json, .jsonl:
            let reader = JSONReader(bytes: Array(text.utf8), file: "out", layout: shape == .jsonLines ? .lines : .array)
            while let node = try reader.next() { nodes.append(node) }
        case .yaml:
            let reader = YAMLReader(text: text, file: "out")
            while let node = try reader.next() { nodes.append(node) }
        }
        try #require(nodes.count == types.count)
        let mapper = DocumentMapper(schema: schema, options: MappingOptions(rejectUnknownKeys: true), file: "out")
        return try zip(nodes, types).enumerated().map { index, pair in
            try mapper.map(pair.0, as: pair.1, path: "$[\(index)]").value
        }
    }

    /// Checks that `documents` survive writing and reading in `shape`, and rewrite as the same text.
    func expectRoundTrip(_ documents: [(Value, String)], _ shape: Shape, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let text = try write(documents, shape)
        let values = try read(text, shape, types: documents.map(\.1))
        for (index, (value, original)) in zip(values, documents.map(\.0)).enumerated() {
            #expect(value == original, "\(shape) document \(index) differs:\n\(text)", sourceLocation: sourceLocation)
            if value != original { Self.reportDifferences(value, original, path: "$[\(index)]") }
        }
        let again = try write(Array(zip(values, documents.map(\.1))), shape)
        #expect(again == text, "\(shape) rewrite differs", sourceLocation: sourceLocation)
    }

    /// Records the innermost paths where two values differ, to make a failure readable.
    static func reportDifferences(_ found: Value, _ expected: Value, path: String) {
        switch (found, expected) {
        case (.map(let a), .map(let b)):
            for key in Set(a.keys).union(b.keys).sorted() {
                reportDifferences(a[key] ?? .string("<missing>"), b[key] ?? .string("<missing>"), path: "\(path).\(key)")
            }
        case (.list(let a), .list(let b)) where a.count == b.count:
            for (index, (x, y)) in zip(a, b).enumerated() { reportDifferences(x, y, path: "\(path)[\(index)]") }
        default:
            if found != expected { Issue.record("\(path): found \(found), expected \(expected)") }
        }
    }

    static func date(_ milliseconds: Int64) -> Value { .date(DateFormatting.date(milliseconds: milliseconds)) }

    static func decimal(_ text: String) throws -> Value { .decimal(try #require(Decimal128(text))) }

    static func objectId(_ hex: String) throws -> Value { .objectId(try #require(ObjectId(hex: hex))) }

    static func uuid(_ text: String) throws -> Value { .uuid(try #require(UUID(uuidString: text))) }

    /// Strings that need escapes in JSON, or quoting in YAML, or neither.
    static let awkwardStrings: [String] = [
        "yes", "No", "on", "null", "Null", "~", "true", "1", "-1", "+1", "0x1F", "0o17", "017", "1_000", "1:20", "1.5", ".5",
        "1e3", ".inf", "-.inf", ".nan", "NaN", "Infinity", "2024-01-01", "2024-01-01 10:00:00", "<<", "=", "a: b", "a:b", "a:",
        "#x", "a #b", "a#b", " lead", "trail ", "", " ", "multi\nline", "tab\there", "cr\rlf", "quote\"s", "single's",
        "back\\slash", "日本語", "emoji 🎉", "ключ", "\u{0}\u{1}\u{1F}\u{7F}", "\u{80}\u{85}\u{9F}\u{A0}", "\u{2028}\u{2029}",
        "a\u{FEFF}b", "\u{FFFE}\u{FFFF}", "- x", "-x", "? x", "?x", "[a]", "{a}", "a, b", "&a", "*a", "!a", "|", ">", "'", "\"",
        "%x", "@x", "`x", "...", "---", "--- x", "plain text", "/path/to/file", "$dollar", "(paren)", "a\u{0}b",
    ]

    /// An `Everything` document with only its required properties, and `extra`.
    static func minimalEverything(id: Int64, _ extra: [String: Value] = [:]) throws -> Value {
        let required: [String: Value] = [
            "id": .int(id), "flag": false, "count": 0, "single": .float(0), "real": 0.0, "text": "", "when": date(0),
            "blob": .data(Data()), "amount": try decimal("0"), "oid": try objectId("000000000000000000000000"),
            "token": try uuid("00000000-0000-0000-0000-000000000001"),
        ]
        return .map(required.merging(extra) { $1 })
    }

    /// A document with every property kind, links of every form and awkward values.
    static func everything() throws -> Value {
        let awkward = awkwardStrings.map { Value.string($0) }
        var awkwardMap: [String: Value] = [:]
        for (index, text) in awkwardStrings.enumerated() where !text.hasPrefix("$") && !text.contains(".") {
            awkwardMap[text] = .int(Int64(index))
        }
        awkwardMap[String(repeating: "long key ", count: 150)] = "a key too long for an implicit YAML key"
        awkwardMap[String(repeating: "nested long key ", count: 80)] = [1, ["a": [2, [:]]], []]
        let typedMixed: Value = [
            "null": nil, "bool": false, "int": .int(Int64.min), "double": 2.5, "wholeDouble": 3.0, "negativeZero": .double(-0.0),
            "infinity": .double(.infinity), "minusInfinity": .double(-.infinity), "string": "yes", "date": date(-1),
            "data": .data(Data([0, 1, 2, 253, 254, 255])), "decimal": try decimal("1.50"), "wide": try decimal("9223372036854775808"),
            "oid": try objectId("507f1f77bcf86cd799439011"), "uuid": try uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
            "emptyList": [], "emptyMap": [:], "nested": [1, [2, [3, [:]]], ["deep": ["deeper": [nil, "x"]]]],
        ]
        return [
            "$id": "top",
            "id": .int(Int64.max),
            "flag": true,
            "count": .int(Int64.min),
            "single": .float(0.1),
            "real": .double(0.1),
            "text": "multi\nline \"quoted\" 🎉",
            "when": date(1_714_566_896_789),
            "blob": .data(Data((0...255).map { UInt8($0) })),
            "amount": try decimal("-1234567890123456789012345678.9050"),
            "oid": try objectId("0123456789abcdef01234567"),
            "token": try uuid("00000000-0000-0000-0000-000000000000"),
            "anything": typedMixed,
            "maybeFlag": nil, "maybeCount": 0, "maybeSingle": nil, "maybeReal": .double(-0.0), "maybeText": "",
            "maybeWhen": date(-62_135_596_800_000), "maybeBlob": .data(Data()), "maybeAmount": nil, "maybeOid": nil,
            "maybeToken": try uuid("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"),
            "ints": [0, 1, -1, .int(Int64.max), .int(Int64.min)],
            "maybeStrings": .list(awkward + [nil]),
            "reals": [0.1, 1.0, 1e300, -0.0, .double(.leastNonzeroMagnitude), 1e-5, 1e20, 123456.789, .double(.greatestFiniteMagnitude),
                      .double(.infinity), .double(-.infinity), .double(-.leastNormalMagnitude)],
            "singles": [.float(0.1), .float(1), .float(-1.5), .float(.greatestFiniteMagnitude), .float(.leastNonzeroMagnitude),
                        .float(.infinity), .float(-.infinity), .float(16_777_216), .float(3.4e-38), .float(1e20)],
            "dates": [date(0), date(-1), date(-2_208_988_800_000), date(253_402_300_799_999), date(253_402_300_800_000),
                      date(-62_135_596_800_001), date(-1_000_000_000_000_000), date(1_000_000_000_000_000)],
            "blobs": [.data(Data()), .data(Data([1])), .data(Data([1, 2])), .data(Data([1, 2, 3]))],
            "amounts": [try decimal("0"), try decimal("-0"), try decimal("0.00"), try decimal("1E+6"), try decimal("NaN"),
                        try decimal("-Infinity"), try decimal("1E-6176"), try decimal("0.000001"), try decimal("1.5E-7")],
            "oids": [try objectId("ffffffffffffffffffffffff")],
            "tokens": [try uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")],
            "tags": .list(awkward),
            "scores": ["a": 1, "b": -2, "": 0, "yes": 3, "with space": 4],
            "notes": .map(awkwardMap.mapValues { _ in .null }.merging(["text": "yes"]) { $1 }),
            "mixedList": [nil, true, 1, 1.0, "1", [], [:], [[1, 2], ["k": "v"]], try decimal("1.0")],
            "mixedMap": .map(awkwardMap.merging(["typed": typedMixed]) { $1 }),
            // A nested document carrying an $id, referenced later in this document.
            "child": ["$id": "rex", "name": "Rex", "age": 3, "toy": ["$id": "ball", "name": "Ball", "toy": ["$ref": "rex"]]],
            "children": [
                ["$ref": "rex"], ["$ref": "ball"], ["$ref": "later"], ["$ref": "not an anchor"], ["$ref": 7],
                ["$id": "not an anchor", "name": "Spaced"], ["$id": 7, "name": "Numbered"], ["name": "Plain"],
                ["$id": "later", "name": "Later"], ["$ref": "later"], ["$ref": ["composite": [1, 2]]],
            ],
            "childSet": [["name": "Solo"], ["$ref": "rex"]],
            "childMap": ["a": ["$id": "mapped", "name": "Mapped"], "b": ["$ref": "mapped"], "c": nil, "d": ["name": "D"]],
            "address": ["street": "1 Main St", "city": "yes"],
            "addresses": [[:], ["$id": "home", "city": "Oslo"], ["city": "Bergen"]],
            "addressMap": ["home": ["city": "Bergen"], "none": nil],
            "friend": 42,
            "friends": [["$ref": "top"], 1, try minimalEverything(id: 2, ["friends": [], "children": [], "anything": nil])],
            "named": "yes",
            "namedList": ["null", ["name": "Inline"], ["$id": "n-1_x", "name": "Anchored"], ["$ref": "n-1_x"]],
            "byToken": try uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
        ]
    }

    // MARK: Round trips

    @Test(arguments: Shape.allCases)
    func everyPropertyKindRoundTrips(_ shape: Shape) throws {
        let second = try Self.minimalEverything(id: 1, ["friend": ["$ref": "top"], "children": [["$ref": "rex"]], "anything": [:]])
        let empty: Value = [:]
        try expectRoundTrip([(try Self.everything(), "Everything"), (second, "Everything"), (empty, "Address")], shape)
    }

    /// An embedded object has one parent, so a reference in an embedded position is refused, not written.
    @Test(arguments: Shape.allCases)
    func referencesFromEmbeddedPositionsAreRefused(_ shape: Shape) throws {
        let document: Value = ["first": ["$id": "home", "name": "Home"], "second": ["$ref": "home"], "address": ["$ref": "home"]]
        #expect {
            try write([(document, "Pair")], shape)
        } throws: { error in
            (error as? KuraError)?.message
                == "$[0].address: a reference cannot stand for embedded Address: an embedded object has one parent"
        }
    }

    @Test(arguments: Shape.allCases)
    func deepestDocumentTheMapperReadsRoundTrips(_ shape: Shape) throws {
        var nested: Value = "bottom"
        // The document is depth 0, its property 1, and each mixed list one more, up to the mapper's 255.
        for _ in 0..<254 { nested = [nested] }
        try expectRoundTrip([(["anything": nested], "Box")], shape)
        var chain: Value = ["name": "last"]
        for index in 0..<255 { chain = ["name": .string("link \(index)"), "toy": chain] }
        try expectRoundTrip([(chain, "Child")], shape)
    }

    /// Short strings built from the characters YAML and JSON treat specially, numbers from random
    /// bit patterns, and dates across the whole range the mapper reads.
    static func randomDocument(_ random: inout SplitMix64) -> Value {
        let pieces = ["a", "Z", "0", "1", "9", " ", "-", "+", ".", ":", "#", ",", "?", "!", "&", "*", "'", "\"", "\\", "[", "]",
                      "{", "}", "|", ">", "%", "@", "`", "~", "=", "<", "_", "/", "$", "\t", "\n", "\r", "\u{0}", "\u{7F}",
                      "\u{85}", "\u{A0}", "é", "日", "🎉", "\u{2028}", "\u{FEFF}", "e", "x", "o", "n", "y", "true", "null", "inf",
                      "nan", "2024-01-02", "T10:00:00"]
        func text() -> String {
            var result = ""
            for _ in 0..<Int.random(in: 0...5, using: &random) { result += pieces.randomElement(using: &random) ?? "" }
            // Yams drops a leading byte order mark; that is tested on its own.
            return result.hasPrefix("\u{FEFF}") ? "x" + result : result
        }
        func double() -> Double {
            let value = Double(bitPattern: random.next())
            return value.isFinite ? value : Double(Int64.random(in: -1000...1000, using: &random)) / 8
        }
        var strings: [Value] = []
        var entries: [String: Value] = [:]
        for _ in 0..<40 {
            strings.append(.string(text()))
            let key = text()
            if !key.hasPrefix("$") && !key.contains(".") {
                entries[key] = [.string(text()), .double(double()), .int(Int64(bitPattern: random.next()))]
            }
        }
        let dates = (0..<10).map { _ in date(Int64.random(in: -1_000_000_000_000_000...1_000_000_000_000_000, using: &random)) }
        entries["doubles"] = .list((0..<10).map { _ in .double(double()) })
        let nestedId: Value = Bool.random(using: &random) ? .string(text()) : .string(["a1", "x-y", "_z"].randomElement(using: &random) ?? "")
        let next: Value = ["$id": nestedId, "anything": .list(strings + dates), "next": ["$ref": nestedId]]
        return ["$id": .string(text()), "anything": .map(entries), "next": next]
    }

    @Test(arguments: Shape.allCases)
    func randomDocumentsRoundTrip(_ shape: Shape) throws {
        var random = SplitMix64(seed: 20_240_501)
        let documents = (0..<50).map { _ in (Self.randomDocument(&random), "Box") }
        try expectRoundTrip(documents, shape)
        let singles: [(Value, String)] = (0..<500).map { _ in
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
            return (["single": .float(value.isNaN ? 0 : value)], "Holder")
        }
        try expectRoundTrip(singles, shape)
    }

    @Test(arguments: Shape.allCases)
    func anEmptyStreamReadsAsNoDocuments(_ shape: Shape) throws {
        let text = try write([], shape)
        #expect(try read(text, shape, types: []).isEmpty)
    }

    // MARK: Exact text

    /// Two documents with an identity, a reference within the document and one across documents.
    static let pairs: [(Value, String)] = [
        (["$id": "p0", "first": ["$id": "c1", "name": "Rex", "age": 3], "second": ["$ref": "c1"], "note": ["b": [1, 2.5], "a": "yes"]],
         "Pair"),
        (["first": ["$ref": "c1"], "note": nil], "Pair"),
    ]

    @Test func compactJSONIsOneDocumentPerLineInAnArray() throws {
        #expect(try write(Self.pairs, .json) == """
            [
            {"$id":"p0","first":{"$id":"c1","name":"Rex","age":3},"second":{"$ref":"c1"},"note":{"a":"yes","b":[1,2.5]}},
            {"first":{"$ref":"c1"},"note":null}
            ]

            """)
    }

    @Test func prettyJSONIndentsByTwoWithOneMemberPerLine() throws {
        #expect(try write(Self.pairs, .prettyJSON) == """
            [
              {
                "$id": "p0",
                "first": {
                  "$id": "c1",
                  "name": "Rex",
                  "age": 3
                },
                "second": {
                  "$ref": "c1"
                },
                "note": {
                  "a": "yes",
                  "b": [
                    1,
                    2.5
                  ]
                }
              },
              {
                "first": {
                  "$ref": "c1"
                },
                "note": null
              }
            ]

            """)
    }

    @Test func jsonLinesIsOneCompactDocumentPerLine() throws {
        #expect(try write(Self.pairs, .jsonLines) == """
            {"$id":"p0","first":{"$id":"c1","name":"Rex","age":3},"second":{"$ref":"c1"},"note":{"a":"yes","b":[1,2.5]}}
            {"first":{"$ref":"c1"},"note":null}

            """)
    }

    /// The top-level `$id` stays a key (an anchor there could never be aliased); the nested one
    /// becomes an anchor, aliased later in its document but not from the next document.
    @Test func yamlUsesAnchorsAndAliasesWithinADocument() throws {
        #expect(try write(Self.pairs, .yaml) == """
            ---
            $id: p0
            first: &c1
              name: Rex
              age: 3
            second: *c1
            note:
              a: "yes"
              b:
                - 1
                - 2.5
            ---
            first:
              $ref: c1
            note: null

            """)
    }

    static func typedValues() throws -> Value {
        [
            "anything": [
                "date": date(1_714_566_896_789), "old": date(-1), "far": date(253_402_300_800_000),
                "data": .data(Data([0, 1, 2, 253, 254, 255])), "decimal": try decimal("1.50"),
                "oid": try objectId("507f1f77bcf86cd799439011"), "uuid": try uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
                "infinity": .double(-.infinity), "small": 1e-5, "large": 1e20, "whole": 1.0, "single": .float(0.5),
                "list": [[], [:], [nil, "a\u{1}\"b"]],
            ],
        ]
    }

    @Test func typedValuesUseTheirWrappers() throws {
        let documents = [(try Self.typedValues(), "Box")]
        #expect(try write(documents, .jsonLines) == #"""
            {"anything":{"data":{"$binary":{"base64":"AAEC/f7/","subType":"00"}},"date":{"$date":"2024-05-01T12:34:56.789Z"},\#
            "decimal":{"$numberDecimal":"1.50"},"far":{"$date":{"$numberLong":"253402300800000"}},"infinity":{"$numberDouble":"-Infinity"},\#
            "large":1e+20,"list":[[],{},[null,"a\u0001\"b"]],"oid":{"$oid":"507f1f77bcf86cd799439011"},"old":{"$date":"1969-12-31T23:59:59.999Z"},\#
            "single":0.5,"small":1e-05,"uuid":{"$uuid":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f"},"whole":1.0}}

            """#)
        #expect(try write(documents, .yaml) == #"""
            ---
            anything:
              data: !!binary "AAEC/f7/"
              date: 2024-05-01T12:34:56.789Z
              decimal: {$numberDecimal: "1.50"}
              far: {$date: {$numberLong: "253402300800000"}}
              infinity: {$numberDouble: "-Infinity"}
              large: 1e+20
              list:
                - []
                - {}
                - - null
                  - "a\x01\"b"
              oid: {$oid: "507f1f77bcf86cd799439011"}
              old: 1969-12-31T23:59:59.999Z
              single: 0.5
              small: 1e-05
              uuid: {$uuid: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"}
              whole: 1.0

            """#)
    }

    @Test func aFloatWhoseShortestTextTheMapperRefusesIsWrittenExactly() throws {
        let text = try write([(["single": .float(.greatestFiniteMagnitude)], "Holder")], .jsonLines)
        #expect(text == #"{"single":3.4028234663852886e+38}"# + "\n")
        #expect(try read(text, .jsonLines, types: ["Holder"]) == [["single": .float(.greatestFiniteMagnitude)]])
    }

    /// The mapper reads `{"$oid": …}` in a link position as a nested document with an unknown key,
    /// so a link by an objectId primary key does not read back.
    @Test(arguments: Shape.allCases)
    func linksByObjectIdKeyRoundTrip(_ shape: Shape) throws {
        let document: Value = ["byOid": try Self.objectId("507f1f77bcf86cd799439011"), "single": .float(1)]
        try expectRoundTrip([(document, "Holder")], shape)
    }

    // MARK: Errors

    /// The error writing `value` as `type` throws, after which the writer still writes good documents.
    func writeError(_ value: Value, as type: String, format: DocumentFormat = .json) throws -> KuraError? {
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: schema, format: format, output: output)
        var caught: KuraError?
        do {
            try writer.write(value, as: type)
        } catch {
            caught = error
        }
        try writer.write(["name": "ok"], as: "Child")
        try writer.finish()
        let expected = format == .yaml ? "---\nname: ok\n" : "[\n{\"name\":\"ok\"}\n]\n"
        #expect(String(decoding: output.bytes, as: UTF8.self) == expected)
        #expect(writer.documentsWritten == 1)
        return caught
    }

    @Test func unwritableValuesNameTheirPath() throws {
        let stored = Value.object(ObjectRef(type: "Child", id: 3))
        let cases: [(Value, String, KuraError.DocumentCode, String)] = [
            (["first": stored], "Pair", .unwritableValue,
             "$[0].first: cannot write the stored object reference Child#3; convert links to documents, references or keys first"),
            (["note": ["k": [1, stored]]], "Pair", .unwritableValue,
             "$[0].note.k[1]: cannot write the stored object reference Child#3; convert links to documents, references or keys first"),
            (["name": "x", "nickname": "y"], "Child", .unwritableValue, "$[0]: 'nickname' is not a stored property of Child"),
            (["name": "x", "parents": []], "Child", .unwritableValue, "$[0]: 'parents' is not a stored property of Child"),
            (["name": 5], "Child", .unwritableValue, "$[0].name: expected string, found int"),
            (["name": "x", "age": 1.5], "Child", .unwritableValue, "$[0].age: expected int, found double"),
            (["first": ["name": nil]], "Pair", .unwritableValue, "$[0].first.name: expected string, found null"),
            (["first": "Rex"], "Pair", .unwritableValue, "$[0].first: expected a nested Child document, found string"),
            (["address": "x"], "Pair", .unwritableValue, "$[0].address: expected a nested Address document, found string"),
            (["anything": .double(.nan)], "Box", .unwritableValue, "$[0].anything: NaN has no document form"),
            (["single": .float(.nan)], "Holder", .unwritableValue, "$[0].single: NaN has no document form"),
            (["anything": ["a.b": 1]], "Box", .unwritableValue, "$[0].anything: map key 'a.b' contains '.'"),
            (["anything": ["$date": 1]], "Box", .unwritableValue, "$[0].anything: map key '$date' starts with '$'"),
            ("Rex", "Child", .unwritableValue, "$[0]: expected a map of Child properties, found string"),
            (["name": "x"], "Nobody", .unwritableValue, "$[0]: no type 'Nobody' in the schema (types: Address, Box, ByOid, ByToken, Child, Everything, Holder, Named, Pair)"),
        ]
        for (value, type, code, message) in cases {
            let error = try writeError(value, as: type)
            #expect(error == KuraError.document(code, message, file: "<memory>"))
        }
    }

    @Test func valuesDeeperThanTheMapperReadsAreRefused() throws {
        var nested: Value = "bottom"
        for _ in 0..<255 { nested = [nested] }
        let error = try writeError(["anything": nested], as: "Box", format: .yaml)
        #expect(error?.code == .document(.depthLimit))
        #expect(error?.message.hasSuffix("[0][0][0]: documents nest deeper than 256 levels") == true)
        var chain: Value = ["name": "last"]
        for _ in 0..<256 { chain = ["name": "link", "toy": chain] }
        #expect(try writeError(chain, as: "Child")?.code == .document(.depthLimit))
    }

    /// Yams drops a leading byte order mark from every scalar, so YAML refuses such strings.
    @Test func aLeadingByteOrderMarkIsRefusedInYAMLOnly() throws {
        let document: Value = ["name": "\u{FEFF}bom"]
        try expectRoundTrip([(document, "Child")], .json)
        #expect(try writeError(document, as: "Child", format: .yaml) == KuraError.document(
            .unwritableValue, "$[0].name: YAML cannot carry a string that starts with U+FEFF (the reader drops it); use JSON",
            file: "<memory>"))
    }

    @Test func writingAfterFinishIsAnError() throws {
        let writer = DocumentWriter(schema: schema, format: .jsonl, output: DocumentOutput())
        try writer.finish()
        try writer.finish()
        #expect(throws: KuraError.document(.outputClosed, "cannot write a document after the writer is finished", file: "<memory>")) {
            try writer.write(["name": "late"], as: "Child")
        }
    }

    // MARK: Outputs and formats

    @Test func fileOutputIsCreatedTruncatedAndFlushedInBlocks() throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("children.jsonl").path
        for count in [5000, 3] {
            let writer = DocumentWriter(schema: schema, format: .jsonl, output: try DocumentOutput(path: path))
            for index in 0..<count { try writer.write(["name": .string("child \(index)"), "age": .int(Int64(index))], as: "Child") }
            try writer.finish()
            let reader = try JSONReader(path: path, layout: .lines)
            var names: [DocumentNode] = []
            while let node = try reader.next() { names.append(node) }
            #expect(names.count == count)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == """
            {"name":"child 0","age":0}
            {"name":"child 1","age":1}
            {"name":"child 2","age":2}

            """)
    }

    @Test func anUncreatableFileIsAnIOError() throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("missing/out.json").path
        #expect(throws: KuraError.document(.io, "cannot create file: No such file or directory", file: path)) {
            _ = try DocumentOutput(path: path)
        }
    }

    @Test func formatsAreNamedByFileExtensions() {
        #expect(DocumentFormat(fileExtension: "json") == .json)
        #expect(DocumentFormat(fileExtension: ".JSON") == .json)
        #expect(DocumentFormat(fileExtension: "jsonl") == .jsonl)
        #expect(DocumentFormat(fileExtension: "ndjson") == .jsonl)
        #expect(DocumentFormat(fileExtension: "yaml") == .yaml)
        #expect(DocumentFormat(fileExtension: "YML") == .yaml)
        #expect(DocumentFormat(fileExtension: "csv") == nil)
        #expect(DocumentFormat(rawValue: "jsonl") == .jsonl)
    }
}
