import Foundation
import Kura
import KuraTestSupport
import Testing

/// One row of the type table read from YAML: a YAML document, the type it is mapped as, and
/// what the reader and mapper must do with it.
struct YAMLMapperCase: CustomTestStringConvertible, Sendable {
    /// The type of `T.v`; only rows that map a `T` use it.
    var type: String
    /// The whole YAML document.
    var yaml: String
    /// The type the document is mapped as.
    var root: String
    var expected: Expected
    var options: MappingOptions

    enum Expected: Sendable {
        /// Mapped to exactly this value, with this many unknown keys.
        case accept(Value, unknownKeys: Int)
        /// Refused by the mapper with exactly these errors, each `line:col: error: path: message`.
        case reject([String])
        /// Refused by the YAML reader with exactly this error, `line:col: error: message`.
        case unreadable(String)
    }

    var testDescription: String {
        let shown = yaml.hasSuffix("\n") ? String(yaml.dropLast()) : yaml
        let subject = root == "T" ? type : root
        return "\(subject) ← \(shown.replacingOccurrences(of: "\n", with: "⏎"))"
    }
}

/// The strict type rules for YAML input, row by row, with the exact error text and position.
@Suite struct MapperRulesYAMLTests {
    typealias Case = YAMLMapperCase

    // MARK: Row builders

    /// `v: <yaml>` mapped as `T` with `v` of type `type` is accepted as `["v": value]`.
    static func accept(_ type: String, _ yaml: String, _ value: Value, _ options: MappingOptions = MappingOptions()) -> Case {
        Case(type: type, yaml: "v: \(yaml)\n", root: "T", expected: .accept(["v": value], unknownKeys: 0), options: options)
    }

    /// `v: <yaml>` is refused by the mapper with one error at `at` (`line:col`).
    static func reject(
        _ type: String, _ yaml: String, at: String, _ message: String, _ options: MappingOptions = MappingOptions()
    ) -> Case {
        Case(type: type, yaml: "v: \(yaml)\n", root: "T", expected: .reject(["\(at): error: \(message)"]), options: options)
    }

    /// `v: <yaml>` is refused by the YAML reader with an error at `at`.
    static func unreadable(_ type: String, _ yaml: String, at: String, _ message: String) -> Case {
        Case(type: type, yaml: "v: \(yaml)\n", root: "T", expected: .unreadable("\(at): error: \(message)"), options: MappingOptions())
    }

    /// A whole document mapped as `root` is accepted as `value`.
    static func acceptDocument(
        _ root: String, _ yaml: String, _ value: Value, unknownKeys: Int = 0, _ options: MappingOptions = MappingOptions()
    ) -> Case {
        Case(type: "int?", yaml: yaml, root: root, expected: .accept(value, unknownKeys: unknownKeys), options: options)
    }

    /// A whole document mapped as `root` is refused by the mapper with these errors, in order.
    static func rejectDocument(_ root: String, _ yaml: String, _ errors: [String], _ options: MappingOptions = MappingOptions()) -> Case {
        Case(type: "int?", yaml: yaml, root: root, expected: .reject(errors), options: options)
    }

    /// A whole document is refused by the YAML reader.
    static func unreadableDocument(_ yaml: String, at: String, _ message: String) -> Case {
        Case(type: "int?", yaml: yaml, root: "Rec", expected: .unreadable("\(at): error: \(message)"), options: MappingOptions())
    }

    // MARK: Values used by the rows

    static let isoDates = MappingOptions(dateStrategy: .iso8601)
    static let epochMillis = MappingOptions(dateStrategy: .millisecondsSince1970)
    static let epochSeconds = MappingOptions(dateStrategy: .secondsSince1970)
    static let base64 = MappingOptions(dataStrategy: .base64)
    static let encodeKeys = MappingOptions(percentEncodeMapKeys: true)
    static let strictKeys = MappingOptions(rejectUnknownKeys: true)

    static let oidHex = "507f1f77bcf86cd799439011"
    static let oid: Value = ObjectId(hex: oidHex).map(Value.objectId) ?? "bad test ObjectId"
    static let uuid: Value = UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f").map(Value.uuid) ?? "bad test UUID"

    static func date(_ seconds: Double) -> Value { .date(Date(timeIntervalSince1970: seconds)) }
    static func decimal(_ text: String) -> Value { Decimal128(text).map(Value.decimal) ?? .string("bad test decimal \(text)") }
    static func data(_ bytes: [UInt8]) -> Value { .data(Data(bytes)) }

    /// 2001-12-14T00:00:00Z and 2001-12-15T02:59:43.1Z, the timestamps of the YAML 1.1 type repository.
    static let yamlDay = date(1_008_288_000)
    static let yamlInstant = date(1_008_385_183.1)

    // MARK: The rows

    static let strings: [Case] = [
        accept("string", "hello", "hello"),
        accept("string", "hello world", "hello world"),
        accept("string", "hello # a comment", "hello"),
        accept("string", #""3""#, "3"),
        accept("string", "'yes'", "yes"),
        accept("string", "'~'", "~"),
        accept("string", #""""#, ""),
        accept("string", #""\u00e9\U0001F600""#, "é😀"),
        accept("string", "!!str 3", "3"),
        accept("string", "!!str yes", "yes"),
        accept("string", "! 12", "12"),
        accept("string", "|\n  line one\n  line two\n", "line one\nline two\n"),
        accept("string", ">\n  folded\n  text\n", "folded text\n"),
        accept("string", "|-\n  kept\n", "kept"),
        accept("string", "plain\n  continued", "plain continued"),
        reject("string", "3", at: "1:4", "$.v: expected string, found number 3"),
        reject("string", "yes", at: "1:4", "$.v: expected string, found bool true"),
        reject("string", "off", at: "1:4", "$.v: expected string, found bool false"),
        reject("string", "~", at: "1:4", "$.v: expected string, found null"),
        reject("string", "null", at: "1:4", "$.v: expected string, found null"),
        reject("string", "0x1F", at: "1:4", "$.v: expected string, found number 0x1F"),
        reject("string", "2001-12-14", at: "1:4", "$.v: expected string, found timestamp"),
        reject("string", "!!binary AAEC", at: "1:4", "$.v: expected string, found binary"),
        reject("string", "[a]", at: "1:4", "$.v: expected string, found array"),
        reject("string", "{a: 1}", at: "1:4", "$.v: expected string, found object"),
        unreadable("string", ".inf", at: "1:4", "YAML float '.inf' is not a finite number"),
        accept("string?", "~", nil),
        accept("string?", "null", nil),
        accept("string?", "", nil),
        accept("string?", "!!null ''", nil),
        accept("string?", "x", "x"),
    ]

    static let bools: [Case] = [
        accept("bool", "true", true),
        accept("bool", "false", false),
        accept("bool", "True", true),
        accept("bool", "yes", true),
        accept("bool", "no", false),
        accept("bool", "on", true),
        accept("bool", "OFF", false),
        accept("bool", "!!bool yes", true),
        reject("bool", "y", at: "1:4", #"$.v: expected bool, found string "y""#),
        reject("bool", "0", at: "1:4", "$.v: expected bool, found number 0"),
        reject("bool", "1", at: "1:4", "$.v: expected bool, found number 1"),
        reject("bool", #""true""#, at: "1:4", #"$.v: expected bool, found string "true""#),
        reject("bool", "!!str yes", at: "1:4", #"$.v: expected bool, found string "yes""#),
        reject("bool", "~", at: "1:4", "$.v: expected bool, found null"),
        accept("bool?", "~", nil),
    ]

    static let ints: [Case] = [
        accept("int", "42", 42),
        accept("int", "-0", 0),
        accept("int", "+1", 1),
        accept("int", "1_000", 1000),
        accept("int", "0x1F", 31),
        accept("int", "0o17", 15),
        accept("int", "017", 15),
        accept("int", "0b101", 5),
        accept("int", "190:20:30", 685_230),
        accept("int", "9223372036854775807", .int(Int64.max)),
        accept("int", "-9223372036854775808", .int(Int64.min)),
        accept("int", "{$numberLong: '9223372036854775807'}", .int(Int64.max)),
        accept("int", #"{$numberLong: "-12"}"#, -12),
        accept("int", #"!!int "3""#, 3),
        accept("int", "&n 7", 7),
        reject("int", "1.5", at: "1:4", "$.v: expected int, found number 1.5"),
        reject("int", "1e3", at: "1:4", "$.v: expected int, found number 1e3"),
        reject("int", "1.0", at: "1:4", "$.v: expected int, found number 1.0"),
        reject("int", "!!float 1", at: "1:4", "$.v: expected int, found number 1"),
        reject("int", #""3""#, at: "1:4", #"$.v: expected int, found string "3""#),
        reject("int", "'3'", at: "1:4", #"$.v: expected int, found string "3""#),
        reject("int", "!!str 3", at: "1:4", #"$.v: expected int, found string "3""#),
        reject("int", "|\n  3\n", at: "1:4", "$.v: expected int, found string \"3\\n\""),
        reject("int", "9223372036854775808", at: "1:4", "$.v: expected int, found number 9223372036854775808 (out of Int64 range)"),
        reject("int", "-9223372036854775809", at: "1:4", "$.v: expected int, found number -9223372036854775809 (out of Int64 range)"),
        reject("int", "0x8000000000000000", at: "1:4", "$.v: expected int, found number 0x8000000000000000 (out of Int64 range)"),
        reject("int", "{$numberLong: '9223372036854775808'}", at: "1:18",
               #"$.v.$numberLong: expected an integer string in Int64 range, found "9223372036854775808""#),
        reject("int", "{$numberLong: 5}", at: "1:18", "$.v.$numberLong: invalid $numberLong value: found number 5"),
        reject("int", "{$oid: \(oidHex)}", at: "1:4", "$.v: expected int, found $oid wrapper"),
        reject("int", "yes", at: "1:4", "$.v: expected int, found bool true"),
        reject("int", "~", at: "1:4", "$.v: expected int, found null"),
        reject("int", "2001-12-14", at: "1:4", "$.v: expected int, found timestamp"),
        unreadable("int", "!!int abc", at: "1:4", "YAML scalar 'abc' is not a valid !!int"),
        unreadable("int", "!!int '1.5'", at: "1:4", "YAML scalar '1.5' is not a valid !!int"),
        accept("int?", "~", nil),
        accept("int?", "NULL", nil),
        accept("int?", "7", 7),
    ]

    static let floats: [Case] = [
        accept("double", "1.5", 1.5),
        accept("double", "3", 3.0),
        accept("double", "-2.5e-3", -0.0025),
        accept("double", "1e308", 1e308),
        accept("double", ".5", 0.5),
        accept("double", "+1.5", 1.5),
        accept("double", "1_000.25", 1000.25),
        accept("double", "1:30.5", 90.5),
        accept("double", "0x10", 16.0),
        accept("double", "!!float 1", 1.0),
        accept("double", #"!!float "2.5""#, 2.5),
        accept("double", "{$numberDouble: -Infinity}", .double(-.infinity)),
        reject("double", "1e309", at: "1:4", "$.v: expected double, found number 1e309 (out of double range)"),
        reject("double", "true", at: "1:4", "$.v: expected double, found bool true"),
        reject("double", #""1.5""#, at: "1:4", #"$.v: expected double, found string "1.5""#),
        reject("double", "{$numberDouble: NaN}", at: "1:20", #"$.v.$numberDouble: expected a number string, found "NaN""#),
        unreadable("double", ".inf", at: "1:4", "YAML float '.inf' is not a finite number"),
        unreadable("double", "-.Inf", at: "1:4", "YAML float '-.Inf' is not a finite number"),
        unreadable("double", ".nan", at: "1:4", "YAML float '.nan' is not a finite number"),
        reject("float", "{$numberDouble: '1e39'}", at: "1:20",
               #"$.v.$numberDouble: expected float, found "1e39" (out of float range)"#),
        accept("float", "1.5", .float(1.5)),
        accept("float", "0.1", .float(0.1)),
        accept("float", "3.4e38", .float(3.4e38)),
        accept("float", "-7", .float(-7)),
        reject("float", "1e39", at: "1:4", "$.v: expected float, found number 1e39 (out of float range)"),
        reject("float", "'1.5'", at: "1:4", #"$.v: expected float, found string "1.5""#),
        reject("float", "on", at: "1:4", "$.v: expected float, found bool true"),
        accept("double?", "~", nil),
    ]

    static let dates: [Case] = [
        accept("date", "2001-12-14", yamlDay),
        accept("date", "2001-12-15T02:59:43.1Z", yamlInstant),
        accept("date", "2001-12-14t21:59:43.10-05:00", yamlInstant),
        accept("date", "2001-12-14 21:59:43.10 -5", yamlInstant),
        accept("date", "2001-12-15 2:59:43.10", yamlInstant),
        accept("date", "!!timestamp '2001-12-14'", yamlDay),
        accept("date", "{$date: '2024-05-01T12:30:00.250Z'}", date(1_714_566_600.25)),
        accept("date", #"{$date: "2024-05-01T14:30:00+02:00"}"#, date(1_714_566_600)),
        accept("date", "{$date: 1714566600250}", date(1_714_566_600.25)),
        accept("date", "{$date: {$numberLong: '-1000'}}", date(-1)),
        accept("date", "{$date: 2024-05-01T12:30:00Z}", date(1_714_566_600)),
        reject("date", #""2001-12-14""#, at: "1:4", #"$.v: expected date, found string "2001-12-14""#),
        reject("date", "!!str 2001-12-14", at: "1:4", #"$.v: expected date, found string "2001-12-14""#),
        reject("date", "2001-12-1", at: "1:4", #"$.v: expected date, found string "2001-12-1""#),
        reject("date", "yesterday", at: "1:4", #"$.v: expected date, found string "yesterday""#),
        reject("date", "1714566600", at: "1:4", "$.v: expected date, found number 1714566600"),
        reject("date", "{$date: yesterday}", at: "1:12", #"$.v.$date: expected an ISO-8601 date, found string "yesterday""#),
        reject("date", "{$date: '2024-02-30T00:00:00Z'}", at: "1:12",
               #"$.v.$date: expected an ISO-8601 date, found string "2024-02-30T00:00:00Z""#),
        unreadable("date", "2001-13-14", at: "1:4", "YAML timestamp '2001-13-14' is not a valid date"),
        unreadable("date", "!!timestamp yesterday", at: "1:4", "YAML scalar 'yesterday' is not a valid !!timestamp"),
        accept("date", #""2024-05-01T12:30:00Z""#, date(1_714_566_600), isoDates),
        accept("date", "'2024-05-01'", date(1_714_521_600), isoDates),
        reject("date", "May 1st", at: "1:4", #"$.v: expected an ISO-8601 date, found string "May 1st""#, isoDates),
        accept("date", "1714566600250", date(1_714_566_600.25), epochMillis),
        accept("date", "1_714_566_600", date(1_714_566_600), epochSeconds),
        accept("date", "2001-12-14", yamlDay, epochSeconds),
        reject("date", "'2024-05-01'", at: "1:4", #"$.v: expected date, found string "2024-05-01""#, epochSeconds),
        accept("date?", "~", nil),
    ]

    static let binaries: [Case] = [
        accept("data", "!!binary AAEC/w==", data([0, 1, 2, 255])),
        accept("data", "!!binary |\n  aGVs\n  bG8=\n", .data(Data("hello".utf8))),
        accept("data", "{$binary: {base64: 'AAEC/w==', subType: '00'}}", data([0, 1, 2, 255])),
        accept("data", "{$binary: {base64: AAEC/w==, subType: 00}}", data([0, 1, 2, 255])),
        reject("data", "AAEC", at: "1:4", #"$.v: expected data, found string "AAEC""#),
        reject("data", "{$binary: AAEC}", at: "1:14", #"$.v.$binary: invalid $binary value: found string "AAEC""#),
        reject("data", "{$binary: {base64: '%%%', subType: '00'}}", at: "1:23",
               #"$.v.$binary.base64: expected base64 data, found string "%%%""#),
        reject("data", "[0, 1]", at: "1:4", "$.v: expected data, found array"),
        unreadable("data", #"!!binary "@@""#, at: "1:4", "invalid base64 in YAML !!binary scalar"),
        accept("data", "AAEC", data([0, 1, 2]), base64),
        accept("data", "!!binary AAEC", data([0, 1, 2]), base64),
    ]

    static let decimals: [Case] = [
        accept("decimal", "1.50", decimal("1.50")),
        accept("decimal", "-7", decimal("-7")),
        accept("decimal", "123456789012345678901234567890", decimal("123456789012345678901234567890")),
        accept("decimal", "'-0.001'", decimal("-0.001")),
        accept("decimal", "{$numberDecimal: '1E+10'}", decimal("1E+10")),
        accept("decimal", "1_000", decimal("1000")),
        accept("decimal", "{$numberLong: '5'}", decimal("5")),
        accept("decimal", "0x1F", decimal("31")),
        reject("decimal", "abc", at: "1:4", #"$.v: expected decimal, found string "abc""#),
        reject("decimal", "yes", at: "1:4", "$.v: expected decimal, found bool true"),
        reject("decimal", "{$numberDecimal: 1E+10}", at: "1:21", "$.v.$numberDecimal: invalid $numberDecimal value: found number 1E+10"),
        reject("decimal", "{$numberDecimal: '1..2'}", at: "1:21", #"$.v.$numberDecimal: expected decimal, found string "1..2""#),
    ]

    static let identifiers: [Case] = [
        accept("objectId", "{$oid: \(oidHex)}", oid),
        accept("objectId", "{$oid: '\(oidHex)'}", oid),
        accept("objectId", "{$oid: &o '\(oidHex)'}", oid),
        reject("objectId", oidHex, at: "1:4", #"$.v: expected objectId, found string "\#(oidHex)""#),
        reject("objectId", "123", at: "1:4", "$.v: expected objectId, found number 123"),
        reject("objectId", "{$oid: 507f1f77}", at: "1:11", #"$.v.$oid: expected 24 hexadecimal digits, found "507f1f77""#),
        // All digits: YAML reads an integer, which the wrapper refuses; it must be quoted.
        reject("objectId", "{$oid: 123456789012345678901234}", at: "1:11",
               "$.v.$oid: invalid $oid value: found number 123456789012345678901234"),
        accept("uuid", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", uuid),
        accept("uuid", "'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'", uuid),
        accept("uuid", "{$uuid: E621E1F8-C36C-495A-93FC-0C247A3E6E5F}", uuid),
        reject("uuid", "not-a-uuid", at: "1:4", #"$.v: expected uuid, found string "not-a-uuid""#),
        reject("uuid", "e621e1f8c36c495a93fc0c247a3e6e5f", at: "1:4", #"$.v: expected uuid, found string "e621e1f8c36c495a93fc0c247a3e6e5f""#),
        reject("uuid", "5", at: "1:4", "$.v: expected uuid, found number 5"),
    ]

    static let mixed: [Case] = [
        accept("mixed", "~", nil),
        accept("mixed", "", nil),
        accept("mixed", "yes", true),
        accept("mixed", "12", 12),
        accept("mixed", "0x1F", 31),
        accept("mixed", "1.5", 1.5),
        accept("mixed", "1e2", 100.0),
        accept("mixed", "99999999999999999999", decimal("99999999999999999999")),
        accept("mixed", "text", "text"),
        accept("mixed", "'12'", "12"),
        accept("mixed", "2001-12-14", yamlDay),
        accept("mixed", "!!binary AAEC", data([0, 1, 2])),
        accept("mixed", "[1, a, [~], {k: no}]", [1, "a", [nil], ["k": false]]),
        accept("mixed", "\n  a:\n    b:\n      - 1.5\n      - on", ["a": ["b": [1.5, true]]]),
        accept("mixed", "{$date: '2024-05-01T12:30:00Z'}", date(1_714_566_600)),
        accept("mixed", "{$oid: \(oidHex)}", oid),
        accept("mixed", "{$numberDecimal: '2.50'}", decimal("2.50")),
        accept("mixed", "{$binary: {base64: AAEC, subType: '00'}}", data([0, 1, 2])),
        accept("mixed", "[&x {a: 1}, *x]", [["a": 1], ["a": 1]]),
        reject("mixed", "{a.b: 1}", at: "1:5", "$.v: map key 'a.b' contains '.' (percent-encode map keys to store it)"),
        reject("mixed", "{k: [1, {$x: 2, y: 3}]}", at: "1:13", "$.v.k[1]: map key '$x' starts with '$' (percent-encode map keys to store it)"),
        accept("mixed", "{a.b: 1, c: 2}", ["a%2Eb": 1, "c": 2], encodeKeys),
        accept("mixed", "{$a: 1}", ["%24a": 1], encodeKeys),
        unreadable("mixed", ".nan", at: "1:4", "YAML float '.nan' is not a finite number"),
    ]

    static let links: [Case] = [
        accept("Target?", "{code: t1}", ["code": "t1"]),
        accept("Target?", "\n  code: t3\n  n: 4", ["code": "t3", "n": 4]),
        accept("Target?", "t1", "t1"),
        accept("Target?", "~", nil),
        accept("Target?", "{$ref: a1}", ["$ref": "a1"]),
        accept("Target?", "[t2, 5]", ["code": "t2", "n": 5]),
        accept("Numbered?", "7", 7),
        accept("Numbered?", "0x10", 16),
        reject("Numbered?", "'7'", at: "1:4", #"$.v: expected int, found string "7""#),
        reject("Target?", "5", at: "1:4", "$.v: expected string, found number 5"),
        // The Norway problem: YAML 1.1 reads `no` as false.
        reject("Target?", "no", at: "1:4", "$.v: expected string, found bool false"),
        reject("Target?", "{code: 5}", at: "1:11", "$.v.code: expected string, found number 5"),
        reject("Target?", "{code: t1, n: x}", at: "1:18", #"$.v.n: expected int, found string "x""#),
        reject("Target?", "{n: 5}", at: "1:4", "$.v: missing required property 'code' (string)"),
        reject("Target?", "[t2, 5, 6]", at: "1:12", "$.v: expected at most 2 values for a positional Target document, found 3"),
        reject("Keyless?", "x", at: "1:4", #"$.v: expected a nested Keyless document, found string "x""#),
        accept("Keyless?", "[x]", ["name": "x"]),
        // Anchors and aliases: an anchored link document gets "$id", a later alias is {"$ref": name}.
        accept("list<Target>", "[&a {code: x}, *a]", [["code": "x", "$id": "a"], ["$ref": "a"]]),
        accept("list<Keyless>", "[&k {name: a}, *k, *k]", [["name": "a", "$id": "k"], ["$ref": "k"], ["$ref": "k"]]),
        accept("list<Target>", "[&p [t2, 5], *p]", [["code": "t2", "n": 5, "$id": "p"], ["$ref": "p"]]),
        accept("list<Target>", "[{code: x, $id: p1}, {$ref: p1}]", [["code": "x", "$id": "p1"], ["$ref": "p1"]]),
        accept("list<Target>", "[&k t1, *k]", ["t1", "t1"]),
        // An alias inside the node its anchor names is a cycle: as a link, `$ref` to the document's `$id`.
        accept("Chain?", "&n {name: a, next: *n}", ["name": "a", "next": ["$ref": "n"], "$id": "n"]),
        accept("Chain?", "&n {name: a, next: {name: b, next: *n}}", ["name": "a", "next": ["name": "b", "next": ["$ref": "n"]], "$id": "n"]),
        accept("list<Chain>", "[&c {name: a, next: *c}, *c]", [["name": "a", "next": ["$ref": "c"], "$id": "c"], ["$ref": "c"]]),
        // Anything else cannot hold itself.
        reject("mixed", "&m [1, *m]", at: "1:11", "$.v[1]: YAML alias '*m' is inside the node it names: only a link to an object can make such a cycle"),
        reject("mixed", "&m {a: *m}", at: "1:11", "$.v.a: YAML alias '*m' is inside the node it names: only a link to an object can make such a cycle"),
    ]

    static let embedded: [Case] = [
        accept("Spot?", "{x: 1}", ["x": 1]),
        accept("Spot?", "\n  x: 2", ["x": 2]),
        accept("Spot?", "~", nil),
        // An embedded object has exactly one parent: a $ref or an alias would give it a second one.
        reject("Spot?", "{$ref: s1}", at: "1:4",
               "$.v: expected a nested Spot document, found a $ref (an embedded object cannot be shared by two parents)"),
        reject("list<Spot>", "[&s {x: 1}, *s]", at: "1:16",
               "$.v[1]: expected a nested Spot document, found alias *s (an embedded object cannot be shared by two parents)"),
        reject("Spot?", "1", at: "1:4", "$.v: expected a nested Spot document, found number 1"),
        reject("Spot?", "'s1'", at: "1:4", #"$.v: expected a nested Spot document, found string "s1""#),
        reject("Spot?", "{x: '1'}", at: "1:8", #"$.v.x: expected int, found string "1""#),
        accept("Spot?", "[3]", ["x": 3]),
    ]

    static let collections: [Case] = [
        accept("list<int>", "[1, 2, 2]", [1, 2, 2]),
        accept("list<int>", "\n  - 1\n  - 0x10", [1, 16]),
        accept("list<int>", "~", []),
        accept("list<int>", "", []),
        accept("list<int>", "[]", []),
        accept("list<int?>", "[1, ~, null]", [1, nil, nil]),
        accept("list<mixed>", "[1, [2], {a: 3}]", [1, [2], ["a": 3]]),
        reject("list<int>", "[1, ~]", at: "1:8", "$.v[1]: expected int, found null"),
        reject("list<int>", "5", at: "1:4", "$.v: expected list<int>, found number 5"),
        reject("list<int>", "\n  - 1\n  - '2'", at: "3:5", #"$.v[1]: expected int, found string "2""#),
        accept("set<string>", "[a, b, a]", ["a", "b", "a"]),
        accept("set<bool>", "[yes, no, on]", [true, false, true]),
        reject("set<string>", "a", at: "1:4", #"$.v: expected set<string>, found string "a""#),
        reject("set<string>", "{a: 1}", at: "1:4", "$.v: expected set<string>, found object"),
        accept("list<Target>", "[{code: a}, b]", [["code": "a"], "b"]),
        reject("list<Target>", "[~]", at: "1:5", "$.v[0]: expected a Target document or primary key, found null"),
        accept("map<int>", "{a: 1, b: 2}", ["a": 1, "b": 2]),
        accept("map<int>", "\n  a: 1\n  b: 0o10", ["a": 1, "b": 8]),
        accept("map<int>", "~", [:]),
        accept("map<string>", "{1: a, yes: b, ~: c}", ["1": "a", "yes": "b", "~": "c"]),
        accept("map<string?>", "{a: ~, b: }", ["a": nil, "b": nil]),
        reject("map<int>", "[1]", at: "1:4", "$.v: expected map<int>, found array"),
        reject("map<int>", "{a: '1'}", at: "1:8", #"$.v.a: expected int, found string "1""#),
        reject("map<int>", "{a.b: 1}", at: "1:5", "$.v: map key 'a.b' contains '.' (percent-encode map keys to store it)"),
        reject("map<int>", "{$a: 1}", at: "1:5", "$.v: map key '$a' starts with '$' (percent-encode map keys to store it)"),
        reject("map<int>", "\n  ok: 1\n  x.y: 2", at: "3:3", "$.v: map key 'x.y' contains '.' (percent-encode map keys to store it)"),
        accept("map<int>", "{a.b: 1, $c: 2, 5%: 3}", ["a%2Eb": 1, "%24c": 2, "5%25": 3], encodeKeys),
        unreadable("map<int>", "{a: 1, a: 2}", at: "1:11", "invalid YAML: duplicated mapping key 'a'"),
        accept("map<int>", "!!map {a: 1}", ["a": 1]),
        accept("list<int>", "!!seq [1]", [1]),
        accept("list<int>", "[1,\n  2]", [1, 2]),
    ]

    static let documents: [Case] = [
        // Positional documents: a top-level sequence is a list of documents (as a JSON file's top-level
        // array is), and a sequence item of it is a positional document: values in schema order,
        // linkingObjects excluded.
        acceptDocument("Target", "- [t9, 3]\n", ["code": "t9", "n": 3]),
        acceptDocument("Target", "- - t9\n  - 3\n", ["code": "t9", "n": 3]),
        acceptDocument("Target", "[[t9]]\n", ["code": "t9"]),
        acceptDocument("Target", "--- &top\n- {code: t9}\n- [t8]\n", ["code": "t9"]),
        acceptDocument("Pet", "- [Rex, 3]\n", ["name": "Rex", "age": 3]),
        acceptDocument("Owner", "pets:\n  - [Rex, 3]\n  - {name: Ivy}\n", ["pets": [["name": "Rex", "age": 3], ["name": "Ivy"]]]),
        rejectDocument("Target", "- [t9, 3, 4]\n", ["1:11: error: $: expected at most 2 values for a positional Target document, found 3"]),
        rejectDocument("Pet", "- [Rex, [], 3]\n", [
            "1:13: error: $: expected at most 2 values for a positional Pet document, found 3",
            "1:9: error: $.age: expected int, found array (value 2 of a positional Pet document)",
        ]),
        rejectDocument("Rec", "- []\n", ["1:3: error: $: missing required property 'a' (int), value 1 of a positional Rec document"]),
        rejectDocument("Target", "[t9, 3]\n", [#"1:2: error: $: expected a Target document, found string "t9""#]),
        rejectDocument("Owner", "pets:\n  - name: Rex\n    age: old\n", [#"3:10: error: $.pets[0].age: expected int, found string "old""#]),
        rejectDocument("Target", "t9\n", [#"1:1: error: $: expected a Target document, found string "t9""#]),
        // Missing properties, defaults (filled by the store, not the mapper), unknown keys.
        acceptDocument("Rec", "a: 1\n", ["a": 1]),
        acceptDocument("Rec", "a: 1\nd: 7\nc: ~\ne: ~\nf: ~\n", ["a": 1, "d": 7, "c": [], "e": [:], "f": nil]),
        acceptDocument("Counter", "label: x\n", ["label": "x"]),
        rejectDocument("Rec", "b: x\n", ["1:1: error: $: missing required property 'a' (int)"]),
        rejectDocument("Rec", "{}\n", ["1:1: error: $: missing required property 'a' (int)"]),
        rejectDocument("Rec", "a: 1\nd: ~\n", ["2:4: error: $.d: expected int, found null"]),
        rejectDocument("Rec", "a: '1'\nb: 2\n", [
            #"1:4: error: $.a: expected int, found string "1""#,
            "2:4: error: $.b: expected string, found number 2",
        ]),
        acceptDocument("Rec", "a: 1\nzz: 2\nyy: [1]\n", ["a": 1], unknownKeys: 2),
        rejectDocument("Rec", "a: 1\nzz: 2\n", ["2:1: error: $: unknown property 'zz' for Rec"], strictKeys),
        acceptDocument("Pet", "name: Rex\nowners: []\n", ["name": "Rex"], unknownKeys: 1),
        acceptDocument("Owner", "pets:\n  - {name: Rex, zz: 1}\n", ["pets": [["name": "Rex"]]], unknownKeys: 1),
        rejectDocument("Owner", "pets:\n  - {name: Rex, zz: 1}\n", ["2:17: error: $.pets[0]: unknown property 'zz' for Pet"], strictKeys),
        acceptDocument("Rec", "a: 1\n$id: r1\n", ["a": 1, "$id": "r1"]),
        unreadableDocument("a: 1\na: 2\n", at: "2:1", "invalid YAML: duplicated mapping key 'a'"),
        unreadableDocument("base: &b {a: 1}\nx:\n  <<: *b\n", at: "3:3", "YAML merge keys are not supported"),
        unreadableDocument("a: !custom 1\n", at: "1:4", "unsupported YAML tag '!custom'"),
        unreadableDocument("m: !!set {a: ~}\n", at: "1:4", "unsupported YAML tag '!!set'"),
        // Anchors and aliases across properties.
        acceptDocument("Rec", "a: &n 7\ng: *n\n", ["a": 7, "g": 7]),
        acceptDocument("Rec", "a: 1\nb: &s hello\nm: *s\n", ["a": 1, "b": "hello", "m": "hello"]),
        acceptDocument("Rec", "a: &n 1\ng: &n 2\nm: *n\n", ["a": 1, "g": 2, "m": 2]),
        acceptDocument("Rec", "a: 1\nf: &t {code: x}\nm: *t\n", ["a": 1, "f": ["code": "x", "$id": "t"], "m": ["code": "x"]]),
        acceptDocument("Rec", "a: 1\nf: &t {code: x}\nh: *t\n", ["a": 1, "f": ["code": "x", "$id": "t"], "h": ["$ref": "t"]]),
        unreadableDocument("a: *nowhere\n", at: "1:4", "YAML alias '*nowhere' names no anchor defined before it"),
        // An error in a value reached through an alias is where the alias stands, naming where the value is written.
        rejectDocument("Rec", "b: &s x\na: *s\n", [#"2:4: error: $.a: expected int, found string "x" (through alias *s, from 1:4)"#]),
        rejectDocument("Rec", "a: 1\nm: &t {code: 5}\nf: *t\n", [
            "3:4: error: $.f.code: expected string, found number 5 (through alias *t, from 2:14)",
        ]),
        rejectDocument("Rec", "a: 1\nm: &t {n: 1}\nf: *t\n", ["3:4: error: $.f: missing required property 'code' (string) (through alias *t, from 2:4)"]),
        // Through nested aliases, at the outermost: the one the document holds there.
        rejectDocument("Rec", "zz: &t x\nyy: &u [*t]\nc: *u\na: 1\n", [#"3:4: error: $.c[0]: expected int, found string "x" (through alias *u, from 1:5)"#]),
        acceptDocument("Rec", "zz: &n 7\na: *n\n", ["a": 7], unknownKeys: 1),
        acceptDocument("Rec", "a: 1\nm: &t {code: x}\nf: *t\n", ["a": 1, "m": ["code": "x"], "f": ["code": "x"]]),
        acceptDocument("Rec", "--- &r\na: 1\n", ["a": 1, "$id": "r"]),
    ]

    static let cases: [Case] =
        strings + bools + ints + floats + dates + binaries + decimals + identifiers + mixed + links + embedded + collections + documents

    static let schemaPrefix = """
        types:
          Target:
            primaryKey: code
            properties:
              code: string
              n: int?
          Numbered:
            primaryKey: id
            properties:
              id: int
              label: string?
          Keyless:
            properties:
              name: string?
          Spot:
            embedded: true
            properties:
              x: int
          Chain:
            properties:
              name: string
              next: Chain?
          Pet:
            properties:
              name: string
              owners: { linkingObjects: Owner.pets }
              age: int?
          Owner:
            properties:
              pets: list<Pet>
          Counter:
            primaryKey: id
            properties:
              id: { type: int, autoIncrement: true }
              label: string?
          Rec:
            properties:
              a: int
              b: string?
              c: list<int>
              d: { type: int, default: 5 }
              e: map<string>
              f: Target?
              g: int?
              h: Target?
              m: mixed

        """

    // MARK: The checks

    @Test(arguments: cases)
    func aRowOfTheTypeTable(_ example: YAMLMapperCase) throws {
        try Self.check(example)
    }

    static func check(_ example: YAMLMapperCase) throws {
        let schema = try Schema(yaml: schemaPrefix + "  T:\n    properties:\n      v: \"\(example.type)\"\n")
        let mapper = DocumentMapper(schema: schema, options: example.options, file: "doc.yaml")
        let node: DocumentNode
        do {
            guard let read = try YAMLReader(text: example.yaml, file: "doc.yaml").next() else {
                Issue.record("the YAML holds no document")
                return
            }
            node = read
        } catch {
            guard case .unreadable(let message) = example.expected else {
                Issue.record("unreadable: \(error)")
                return
            }
            #expect(error.description == "doc.yaml:" + message)
            return
        }
        let mapped: MappedDocument
        do {
            mapped = try mapper.map(node, as: example.root)
        } catch {
            guard case .reject(let messages) = example.expected else {
                Issue.record("refused: \(error)")
                return
            }
            #expect(error.allErrors.map(\.description) == messages.map { "doc.yaml:" + $0 })
            #expect(!error.moreErrors)
            return
        }
        switch example.expected {
        case .accept(let value, let unknownKeys):
            #expect(mapped.value == value)
            #expect(mapped.unknownKeys == unknownKeys)
        case .reject, .unreadable:
            Issue.record("accepted as \(mapped.value)")
        }
    }

    @Test func theTableHasAtLeastAHundredRows() {
        #expect(Self.cases.count >= 100)
    }

    /// The store finishes what the mapper leaves: a set drops duplicates, missing properties take
    /// their default, null, or an empty collection.
    @Test(arguments: RealmEngine.tested) func mappedYAMLStoresWithSetsDedupedAndDefaultsFilled(on engine: RealmEngine) throws {
        let schema = try Schema(yaml: Self.schemaPrefix + "  T:\n    properties:\n      v: int?\n      tags: set<string>\n")
        let yaml = "---\na: 1\nc: [3, 3]\n---\ntags: [a, b, a, 'yes']\n"
        let reader = YAMLReader(text: yaml, file: "doc.yaml")
        let mapper = DocumentMapper(schema: schema, file: "doc.yaml")
        let rec = try #require(try reader.next())
        let tagged = try #require(try reader.next())
        let realm = try engine.makeRealm(schema)
        let (stored, bag) = try realm.write {
            (try realm.create("Rec", value: try mapper.map(rec, as: "Rec").value),
             try realm.create("T", value: try mapper.map(tagged, as: "T").value))
        }
        #expect(try stored["a"] == 1)
        #expect(try stored["b"] == nil)
        #expect(try stored["c"] == [3, 3])
        #expect(try stored["d"] == 5)
        #expect(try stored["e"] == [:])
        #expect(try stored["f"] == nil)
        #expect(try bag["tags"] == ["a", "b", "yes"])
        #expect(try bag["v"] == nil)
    }
}
