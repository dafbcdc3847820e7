import Foundation
import KuraTestSupport
import Testing

/// Hostile files through the real `kura import` into a realm holding the samples: each is refused
/// as bad data (65) with one exact line naming file:line:col and path, and nothing is written —
/// or, where the input is legal however odd, it is stored intact and round-trips.
@Suite struct HostileInputTests {
    /// Ten levels of ten aliases each: 10^10 values if expanded.
    static func billionLaughs(under key: String) -> String {
        var lines = ["name: bomb", "age: 1", "\(key):", "  a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1..<10 {
            lines.append("  a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func yamlAliasBombsFailFastWithOneError() throws {
        let realm = try HostileRealm()
        let clock = ContinuousClock()
        let began = clock.now
        // Into a mixed value, which keeps nested lists: the expansion budget stops it.
        try realm.expectRefused(
            "bomb.yaml", Array(Self.billionLaughs(under: "companion").utf8),
            "bomb.yaml:8:47: error: $[0].companion.a4[7][0][7][3]: YAML aliases expand to more than 100000 values (through alias *a3, from 5:27)")
        // Into a string: the alias is one value of the wrong kind, at the alias, naming where its value is.
        try realm.expectRefused(
            "string.yaml", Array((Self.billionLaughs(under: "junk") + "color: *a9\n").utf8),
            "string.yaml:14:8: error: $[0].color: expected string, found array (through alias *a9, from 13:7)")
        // As a mapping key, which Yams would hash (walking every expanded value) before anyone else saw it.
        try realm.expectRefused(
            "key.yaml", Array((Self.billionLaughs(under: "junk") + "  ? *a9\n  : 1\n").utf8),
            "key.yaml:14:5: error: YAML mapping keys must be scalars")
        #expect(clock.now - began < .seconds(20))
    }

    @Test func aTypeNameWithLineBreaksIsQuotedOnOneLine() throws {
        // Found by the fuzzer: CRs fold a plain scalar, so `$type` held line breaks the message printed.
        let realm = try HostileRealm()
        try realm.expectRefused(
            "type.yaml", Array("$type: Dog\r\r black\nname: x\nage: 1\n".utf8), type: "Dog",
            "type.yaml:1:8: error: $[0].$type: expected \"Dog\", found string \"Dog\\nblack\"")
        let result = try realm.run(["import", realm.name, "type.yaml"])
        #expect(result.status == 65)
        #expect(result.stderr == "kura: type.yaml:1:8: error: $[0].$type: no type 'Dog\\nblack' in the realm (types: Address, Dog, DogClub, DogToy, Person)\n")
    }

    static let numbersSchema = """
        schemaVersion: 1
        types:
          Measure:
            properties:
              label: string
              n: int?
              d: double?
              f: float?
              x: decimal?
              m: mixed
        """

    @Test func hugeNumbersAreRefusedWithTheirTextShortened() throws {
        let realm = try HostileRealm(schema: Self.numbersSchema, seed: nil)
        let digits = String(repeating: "9", count: 10_000)
        let shown = String(repeating: "9", count: 40) + "…"
        let cases: [(field: String, literal: String, message: String)] = [
            ("n", "9223372036854775808", "expected int, found number 9223372036854775808 (out of Int64 range)"),
            ("n", "-" + digits, "expected int, found number -\(shown.dropFirst()) (out of Int64 range)"),
            ("d", "1e400", "expected double, found number 1e400 (out of double range)"),
            ("d", "-1e400", "expected double, found number -1e400 (out of double range)"),
            ("f", "1e39", "expected float, found number 1e39 (out of float range)"),
            ("x", digits, "expected decimal, found number \(shown)"),
            ("x", "-1e6145", "expected decimal, found number -1e6145"),
            ("m", "1e400", "expected mixed, found number 1e400 (out of double range)"),
            ("m", digits + ".5", "expected mixed, found number \(shown) (out of double range)"),
        ]
        for (index, item) in cases.enumerated() {
            let file = "n\(index).json"
            try realm.expectRefused(
                file, Array(#"[{"label": "big", "\#(item.field)": \#(item.literal)}]"#.utf8), type: "Measure",
                "\(file):1:\(23 + item.field.count): error: $[0].\(item.field): \(item.message)")
        }
        // In range however long: kept exactly.
        try realm.write("ok.json", Array(#"[{"label": "ok", "x": 1e400, "m": 123456789012345678901234567890, "d": 1e-400}]"#.utf8))
        let exported = try realm.expectRoundTrip("ok.json", ["--type", "Measure"])
        #expect(exported.contains(#""x":{"$numberDecimal":"1E+400"}"#))
        #expect(exported.contains(#""m":{"$numberDecimal":"123456789012345678901234567890"}"#))
    }

    @Test func hugeStringsAndKeysAreStoredIntact() throws {
        let realm = try HostileRealm()
        let value = String(repeating: "0123456789abcdef", count: 1 << 20)  // 16 MiB
        let key = String(repeating: "k", count: 1 << 20)  // 1 MiB
        try realm.write("big.json", Array(#"[{"name": "\#(value)", "age": 5, "favoriteParksByCity": {"\#(key)": "park"}}]"#.utf8))
        let clock = ContinuousClock()
        let began = clock.now
        let exported = try realm.expectRoundTrip("big.json", ["--type", "Dog"])
        #expect(exported.contains(#""name":"\#(value)","age":5,"#))
        #expect(exported.contains(#""favoriteParksByCity":{"\#(key)":"park"}"#))
        #expect(clock.now - began < .seconds(30))
    }

    @Test func deepNestingIsADepthError() throws {
        let realm = try HostileRealm()
        let depth = 100_000
        let prefix = #"[{"name": "deep", "age": 1, "companion": "#
        try realm.expectRefused(
            "arrays.json", Array((prefix + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}]").utf8),
            "arrays.json:1:\(prefix.count + 511): error: nesting deeper than 512 levels")
        try realm.expectRefused(
            "objects.json",
            Array((prefix + String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth) + "}]").utf8),
            "objects.json:1:\(prefix.count + 5 * 510 + 1): error: nesting deeper than 512 levels")
        try realm.expectRefused(
            "flow.yaml", Array(("name: deep\nage: 1\ncompanion: " + String(repeating: "[", count: depth) + "\n").utf8),
            "flow.yaml:3:13: error: nesting deeper than 512 levels")
        var block = "name: deep\nage: 1\ncompanion:\n"
        for level in 0..<3000 { block += String(repeating: " ", count: 2 * level + 2) + "k:\n" }
        // Counted as the document is read: the 513th collection (its key at line 515) is the offending one.
        try realm.expectRefused("block.yaml", Array(block.utf8), "block.yaml:515:1025: error: nesting deeper than 512 levels")
    }

    @Test func invalidUTF8AndLoneSurrogatesAreRefusedWhereTheyAre() throws {
        let realm = try HostileRealm()
        func json(_ bytes: [UInt8]) -> [UInt8] { Array(#"[{"name": "ab"#.utf8) + bytes + Array(#"", "age": 1}]"#.utf8) }
        try realm.expectRefused("overlong.json", json([0xC0, 0xAF]), "overlong.json:1:14: error: invalid UTF-8 byte 0xc0 in string")
        try realm.expectRefused("surrogate.json", json([0xED, 0xA0, 0x80]), "surrogate.json:1:14: error: invalid UTF-8 byte 0xed in string")
        try realm.expectRefused("ff.json", json([0xFF]), "ff.json:1:14: error: invalid UTF-8 byte 0xff in string")
        try realm.expectRefused("escape.json", json(Array(#"\ud800x"#.utf8)), #"escape.json:1:14: error: lone surrogate \ud800 in string"#)
        try realm.expectRefused("low.json", json(Array(#"\udc00"#.utf8)), #"low.json:1:14: error: lone surrogate \udc00 in string"#)
        try realm.expectRefused(
            "key.json", Array(#"[{"é"#.utf8) + [0xFF] + Array(#"": 1}]"#.utf8), "key.json:1:5: error: invalid UTF-8 byte 0xff in string")
        try realm.expectRefused(
            "bad.yaml", Array("name: ok\nage: 1\ncolor: r\u{e9}d".utf8) + [0xC0, 0xAF, 0x0A], "bad.yaml:3:11: error: invalid UTF-8 byte 0xC0")
    }

    @Test func nulIsAnErrorRawAndContentEscaped() throws {
        let realm = try HostileRealm()
        try realm.expectRefused(
            "raw.json", Array(#"[{"name": "a"#.utf8) + [0] + Array(#"b", "age": 1}]"#.utf8),
            "raw.json:1:13: error: unescaped control character U+0000 in string")
        try realm.expectRefused(
            "outside.json", Array(#"[{"name": "a", "age": 1}"#.utf8) + [0] + Array("]".utf8),
            "outside.json:1:25: error: unexpected character U+0000 in array, expected ',' or ']'")
        let escaped = #"[{"name": "a\u0000b", "age": 1, "favoriteParksByCity": {"k\u0000": "v\u0000w"}, "companion": {"\u0000": "\u0000"}}]"#
        try realm.write("nul.json", Array(escaped.utf8))
        let exported = try realm.expectRoundTrip("nul.json", ["--type", "Dog"])
        #expect(exported.contains(#""name":"a\u0000b","age":1,"#))
        #expect(exported.contains(#""favoriteParksByCity":{"k\u0000":"v\u0000w"},"companion":{"\u0000":"\u0000"}"#))
    }

    @Test func mapKeysWithDotsOrDollarsNeedPercentEncoding() throws {
        let realm = try HostileRealm()
        try realm.expectRefused(
            "dot.json", Array(#"[{"name": "d", "age": 1, "favoriteParksByCity": {"a.b": "v"}}]"#.utf8),
            "dot.json:1:50: error: $[0].favoriteParksByCity: map key 'a.b' contains '.' (percent-encode map keys to store it)")
        try realm.expectRefused(
            "dollar.yaml", Array("name: d\nage: 1\ncompanion: {$where: 1}\n".utf8),
            "dollar.yaml:3:13: error: $[0].companion: map key '$where' starts with '$' (percent-encode map keys to store it)")
        let keys = #"[{"name": "d", "age": 1, "favoriteParksByCity": {"a.b": "v", "$x": "w", "50%": "p"}, "companion": {"$where": {"x.y": 1}}}]"#
        try realm.write("keys.json", Array(keys.utf8))
        let exported = try realm.expectRoundTrip("keys.json", ["--type", "Dog", "--percent-encode-map-keys"])
        #expect(exported.contains(#""favoriteParksByCity":{"%24x":"w","50%25":"p","a%2Eb":"v"},"companion":{"%24where":{"x%2Ey":1}}"#))
    }

    @Test func namesThatLookLikeSQLAreRefusedOrWorkAsNames() throws {
        let folder = try Fixtures.temporaryDirectory()
        let kura = Fixtures.executable("kura")
        let rule = "names hold letters, digits, '_' and characters beyond ASCII other than spaces and controls, and do not start with a digit"
        let refused: [(type: String, property: String, message: String)] = [
            (#"'Robert"); DROP TABLE x;--'"#, "name", #"3:3: error: invalid type name 'Robert"); DROP TABLE x;--': \#(rule)"#),
            (#"'"quoted"'"#, "name", #"3:3: error: invalid type name '"quoted"': \#(rule)"#),
            ("T", "'a b'", "5:14: error: T: invalid property name 'a b': \(rule)"),
            ("T", #"'x; DELETE FROM T'"#, "5:27: error: T: invalid property name 'x; DELETE FROM T': \(rule)"),
        ]
        for (index, item) in refused.enumerated() {
            let schema = "schemaVersion: 1\ntypes:\n  \(item.type):\n    properties:\n      \(item.property): string\n"
            try schema.write(to: folder.appendingPathComponent("s\(index).yaml"), atomically: true, encoding: .utf8)
            let result = try Fixtures.run(kura, ["init", "s\(index).realm", "--schema", "s\(index).yaml"], currentDirectory: folder)
            #expect(result.status == 65)
            #expect(result.stderr == "kura: s\(index).yaml:\(item.message)\n")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("s\(index).realm").path))
        }
    }

    static let keywordSchema = """
        schemaVersion: 1
        types:
          Order:
            primaryKey: select
            properties:
              select: int
              group: string
              where: Order?
              from: list<Table>
              values: map<string>
          Table:
            properties:
              index: string
              order: int
        """

    @Test func sqlKeywordsAreOrdinaryNames() throws {
        let realm = try HostileRealm("orders.realm", schema: Self.keywordSchema, seed: nil)
        let documents = #"""
            [{"select": 1, "group": "g'; DROP TABLE Order;--", "where": 2, "from": [{"index": "i", "order": 1}], "values": {"key": "v"}},
             {"select": 2, "group": "h", "where": 1}]
            """#
        try realm.write("orders.json", Array(documents.utf8))
        let exported = try realm.expectRoundTrip("orders.json", ["--type", "Order"])
        #expect(exported.contains(#""group":"g'; DROP TABLE Order;--""#))
        let query = try realm.run(["export", "orders.realm", "--type", "Order", "--where", "group BEGINSWITH 'g' AND ANY from.order == 1"])
        #expect(query.stdout == "[\n" + #"{"select":1,"group":"g'; DROP TABLE Order;--","where":2,"from":[{"index":"i","order":1}],"values":{"key":"v"}}"# + "\n]\n")
        let copy = try HostileRealm("copy.realm", schema: Self.keywordSchema, seed: nil)
        let copied = try realm.run(["copy", "orders.realm", copy.folder.appendingPathComponent("copy.realm").path, "--type", "Order", "--where", "select == 2"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(try copy.export() == exported)  // order 2 links order 1, which brings its table
        #expect(try copy.problems() == [])
    }
}

extension HostileInputTests {
    @Test func wrapperKeysAreQuotedOnOneLine() throws {
        // Found by the fuzzer: a `$` key with a line break, printed raw in "found … wrapper".
        let realm = try HostileRealm()
        try realm.expectRefused(
            "wrapper.json", Array(#"[{"name": "w", "age": {"$bin\nary": 1}}]"#.utf8),
            #"wrapper.json:1:23: error: $[0].age: expected int, found $bin\nary wrapper"#)
    }
}
