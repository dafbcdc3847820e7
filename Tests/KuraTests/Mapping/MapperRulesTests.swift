import Foundation
import Kura
import Testing

/// One row of the type table of docs/documents.md: a property type, a JSON value, and what the mapper must do with it.
struct MapperCase: CustomTestStringConvertible, Sendable {
    let type: String
    let json: String
    let expected: Result
    var options = MappingOptions()

    enum Result: Sendable {
        case accept(Value)
        case reject(String)
    }

    var testDescription: String { "\(type) ← \(json)" }
}

/// The strict type rules, row by row, with the exact error text.
@Suite struct MapperRulesTests {
    static func accept(_ type: String, _ json: String, _ value: Value, _ options: MappingOptions = MappingOptions()) -> MapperCase {
        MapperCase(type: type, json: json, expected: .accept(value), options: options)
    }

    static func reject(_ type: String, _ json: String, _ message: String, _ options: MappingOptions = MappingOptions()) -> MapperCase {
        MapperCase(type: type, json: json, expected: .reject(message), options: options)
    }

    static let isoDates = MappingOptions(dateStrategy: .iso8601)
    static let epochMillis = MappingOptions(dateStrategy: .millisecondsSince1970)
    static let epochSeconds = MappingOptions(dateStrategy: .secondsSince1970)
    static let base64 = MappingOptions(dataStrategy: .base64)
    static let encodeKeys = MappingOptions(percentEncodeMapKeys: true)
    static let oid = ObjectId(hex: "507f1f77bcf86cd799439011")!
    static let uuid = UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!

    static let cases: [MapperCase] = [
        // string
        accept("string", #""hello""#, "hello"),
        accept("string", #""""#, ""),
        accept("string", #""\u00e9\ud83d\ude00""#, "é😀"),
        reject("string", "3", "$.v: expected string, found number 3"),
        reject("string", "true", "$.v: expected string, found bool true"),
        reject("string", "null", "$.v: expected string, found null"),
        reject("string", "[]", "$.v: expected string, found array"),
        reject("string", "{}", "$.v: expected string, found object"),
        accept("string?", "null", nil),
        accept("string?", #""x""#, "x"),
        reject("string?", "1", "$.v: expected string, found number 1"),
        // bool
        accept("bool", "true", true),
        accept("bool", "false", false),
        reject("bool", "0", "$.v: expected bool, found number 0"),
        reject("bool", "1", "$.v: expected bool, found number 1"),
        reject("bool", #""true""#, #"$.v: expected bool, found string "true""#),
        reject("bool", "null", "$.v: expected bool, found null"),
        accept("bool?", "null", nil),
        // int
        accept("int", "42", 42),
        accept("int", "-0", 0),
        accept("int", "9223372036854775807", .int(Int64.max)),
        accept("int", "-9223372036854775808", .int(Int64.min)),
        accept("int", #"{"$numberLong": "9223372036854775807"}"#, .int(Int64.max)),
        accept("int", #"{"$numberLong": "-12"}"#, -12),
        reject("int", "1.5", "$.v: expected int, found number 1.5"),
        reject("int", "1e3", "$.v: expected int, found number 1e3"),
        reject("int", "1.0", "$.v: expected int, found number 1.0"),
        reject("int", #""3""#, #"$.v: expected int, found string "3""#),
        reject("int", "9223372036854775808", "$.v: expected int, found number 9223372036854775808 (out of Int64 range)"),
        reject("int", "-9223372036854775809", "$.v: expected int, found number -9223372036854775809 (out of Int64 range)"),
        reject("int", #"{"$numberLong": "9223372036854775808"}"#, #"$.v.$numberLong: expected an integer string in Int64 range, found "9223372036854775808""#),
        reject("int", #"{"$numberLong": 5}"#, "$.v.$numberLong: invalid $numberLong value: found number 5"),
        reject("int", #"{"$oid": "507f1f77bcf86cd799439011"}"#, "$.v: expected int, found $oid wrapper"),
        reject("int", "true", "$.v: expected int, found bool true"),
        reject("int", "null", "$.v: expected int, found null"),
        accept("int?", "null", nil),
        accept("int?", "7", 7),
        // float and double
        accept("double", "1.5", 1.5),
        accept("double", "3", 3.0),
        accept("double", "-2.5e-3", -0.0025),
        accept("double", "1e308", 1e308),
        accept("double", #"{"$numberDouble": "-Infinity"}"#, .double(-.infinity)),
        reject("double", "1e309", "$.v: expected double, found number 1e309 (out of double range)"),
        reject("double", "true", "$.v: expected double, found bool true"),
        reject("double", #""1.5""#, #"$.v: expected double, found string "1.5""#),
        reject("double", #"{"$numberDouble": "NaN"}"#, #"$.v.$numberDouble: expected a number string, found "NaN""#),
        accept("float", "1.5", .float(1.5)),
        accept("float", "0.1", .float(0.1)),
        accept("float", "3.4e38", .float(3.4e38)),
        reject("float", "1e39", "$.v: expected float, found number 1e39 (out of float range)"),
        reject("float", #"{"$numberDouble": "1e39"}"#, #"$.v.$numberDouble: expected float, found "1e39" (out of float range)"#),
        reject("float", "true", "$.v: expected float, found bool true"),
        reject("float", #""1.5""#, #"$.v: expected float, found string "1.5""#),
        accept("double?", "null", nil),
        // date
        accept("date", #"{"$date": "2024-05-01T12:30:00.250Z"}"#, .date(Date(timeIntervalSince1970: 1_714_566_600.25))),
        accept("date", #"{"$date": "2024-05-01T14:30:00+02:00"}"#, .date(Date(timeIntervalSince1970: 1_714_566_600))),
        accept("date", #"{"$date": 1714566600250}"#, .date(Date(timeIntervalSince1970: 1_714_566_600.25))),
        accept("date", #"{"$date": {"$numberLong": "-1000"}}"#, .date(Date(timeIntervalSince1970: -1))),
        reject("date", #""2024-05-01T12:30:00Z""#, #"$.v: expected date, found string "2024-05-01T12:30:00Z""#),
        reject("date", "1714566600", "$.v: expected date, found number 1714566600"),
        reject("date", #"{"$date": "yesterday"}"#, #"$.v.$date: expected an ISO-8601 date, found string "yesterday""#),
        reject("date", #"{"$date": "2024-02-30T00:00:00Z"}"#, #"$.v.$date: expected an ISO-8601 date, found string "2024-02-30T00:00:00Z""#),
        accept("date", #""2024-05-01T12:30:00Z""#, .date(Date(timeIntervalSince1970: 1_714_566_600)), isoDates),
        accept("date", #""2024-05-01""#, .date(Date(timeIntervalSince1970: 1_714_521_600)), isoDates),
        reject("date", #""May 1st""#, #"$.v: expected an ISO-8601 date, found string "May 1st""#, isoDates),
        accept("date", "1714566600250", .date(Date(timeIntervalSince1970: 1_714_566_600.25)), epochMillis),
        accept("date", "1714566600", .date(Date(timeIntervalSince1970: 1_714_566_600)), epochSeconds),
        reject("date", #""2024-05-01""#, #"$.v: expected date, found string "2024-05-01""#, epochSeconds),
        accept("date?", "null", nil),
        // data
        accept("data", #"{"$binary": {"base64": "AAEC/w==", "subType": "00"}}"#, .data(Data([0, 1, 2, 255]))),
        reject("data", #""AAEC""#, #"$.v: expected data, found string "AAEC""#),
        reject("data", #"{"$binary": {"base64": "%%%", "subType": "00"}}"#, #"$.v.$binary.base64: expected base64 data, found string "%%%""#),
        reject("data", #"{"$binary": "AAEC"}"#, #"$.v.$binary: invalid $binary value: found string "AAEC""#),
        accept("data", #""AAEC""#, .data(Data([0, 1, 2])), base64),
        reject("data", "[0, 1]", "$.v: expected data, found array"),
        // decimal
        accept("decimal", "1.50", .decimal(Decimal128("1.50")!)),
        accept("decimal", "123456789012345678901234567890", .decimal(Decimal128("123456789012345678901234567890")!)),
        accept("decimal", #""-0.001""#, .decimal(Decimal128("-0.001")!)),
        accept("decimal", #"{"$numberLong": "5"}"#, .decimal(Decimal128("5")!)),
        accept("decimal", #"{"$numberDecimal": "1E+10"}"#, .decimal(Decimal128("1E+10")!)),
        reject("decimal", #""abc""#, #"$.v: expected decimal, found string "abc""#),
        reject("decimal", "true", "$.v: expected decimal, found bool true"),
        reject("decimal", #"{"$numberDecimal": "1..2"}"#, #"$.v.$numberDecimal: expected decimal, found string "1..2""#),
        // objectId
        accept("objectId", #"{"$oid": "507f1f77bcf86cd799439011"}"#, .objectId(oid)),
        reject("objectId", #""507f1f77bcf86cd799439011""#, #"$.v: expected objectId, found string "507f1f77bcf86cd799439011""#),
        reject("objectId", "123", "$.v: expected objectId, found number 123"),
        reject("objectId", #"{"$oid": "507f1f77"}"#, #"$.v.$oid: expected 24 hexadecimal digits, found "507f1f77""#),
        // uuid
        accept("uuid", #""e621e1f8-c36c-495a-93fc-0c247a3e6e5f""#, .uuid(uuid)),
        accept("uuid", #"{"$uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#, .uuid(uuid)),
        reject("uuid", #""not-a-uuid""#, #"$.v: expected uuid, found string "not-a-uuid""#),
        reject("uuid", #""e621e1f8c36c495a93fc0c247a3e6e5f""#, #"$.v: expected uuid, found string "e621e1f8c36c495a93fc0c247a3e6e5f""#),
        reject("uuid", "5", "$.v: expected uuid, found number 5"),
        // mixed
        accept("mixed", "null", nil),
        accept("mixed", "true", true),
        accept("mixed", "12", 12),
        accept("mixed", "1.5", 1.5),
        accept("mixed", "1e2", 100.0),
        accept("mixed", "99999999999999999999", .decimal(Decimal128("99999999999999999999")!)),
        accept("mixed", #""text""#, "text"),
        accept("mixed", #"[1, "a", [null], {"k": false}]"#, [1, "a", [nil], ["k": false]]),
        accept("mixed", #"{"a": {"b": [1.5]}}"#, ["a": ["b": [1.5]]]),
        accept("mixed", #"{"$date": "2024-05-01T12:30:00Z"}"#, .date(Date(timeIntervalSince1970: 1_714_566_600))),
        accept("mixed", #"{"$oid": "507f1f77bcf86cd799439011"}"#, .objectId(oid)),
        accept("mixed", #"{"$numberDecimal": "2.50"}"#, .decimal(Decimal128("2.50")!)),
        reject("mixed", #"{"a.b": 1}"#, "$.v: map key 'a.b' contains '.' (percent-encode map keys to store it)"),
        // links inside mixed values: by key, by reference, nested
        accept("mixed", #"{"$type": "Target", "$key": "t1"}"#, ["$type": "Target", "$link": "t1"]),
        accept("mixed", #"{"$type": "Keyless", "$ref": "k1"}"#, ["$type": "Keyless", "$link": ["$ref": "k1"]]),
        accept("mixed", #"{"$type": "Keyless", "name": "n"}"#, ["$type": "Keyless", "$link": ["name": "n"]]),
        accept("mixed", #"[{"$type": "Target", "$key": "t2"}]"#, [["$type": "Target", "$link": "t2"]]),
        reject("mixed", #"{"$type": "Keyless", "$key": "x"}"#, "$.v.$key: Keyless has no primary key"),
        reject("mixed", #"{"$type": "Target", "$key": 5}"#, "$.v.$key: expected string, found number 5"),
        reject("mixed", #"{"$type": "Spot", "x": 1}"#, "$.v.$type: a mixed value cannot link to 'Spot': not a top-level type of the schema"),
        reject("mixed", #"{"$type": "Nothing"}"#, "$.v.$type: no type 'Nothing' in the schema (types: Keyless, T, Target)"),
        reject("mixed", #"{"$type": 3}"#, "$.v.$type: expected a type name, found number 3"),
        reject("mixed", #"{"$type": "Keyless", "name": 3}"#, "$.v.name: expected string, found number 3"),
        // links
        accept("Target?", #"{"code": "t1"}"#, ["code": "t1"]),
        accept("Target?", #""t1""#, "t1"),
        accept("Target?", "null", nil),
        accept("Target?", #"{"$ref": "a1"}"#, ["$ref": "a1"]),
        accept("Target?", #"["t2", 5]"#, ["code": "t2", "n": 5]),
        reject("Target?", "5", "$.v: expected string, found number 5"),
        reject("Target?", #"{"code": 5}"#, "$.v.code: expected string, found number 5"),
        reject("Target?", #"{"n": 5}"#, "$.v: missing required property 'code' (string)"),
        reject("Target?", #"["t2", 5, 6]"#, "$.v: expected at most 2 values for a positional Target document, found 3"),
        reject("Keyless?", #""x""#, #"$.v: expected a nested Keyless document, found string "x""#),
        // embedded
        accept("Spot?", #"{"x": 1}"#, ["x": 1]),
        reject("Spot?", "1", "$.v: expected a nested Spot document, found number 1"),
        reject("Spot?", #"{"x": "1"}"#, #"$.v.x: expected int, found string "1""#),
        // list and set
        accept("list<int>", "[1, 2, 2]", [1, 2, 2]),
        accept("list<int>", "null", []),
        accept("list<int>", "[]", []),
        accept("list<int?>", "[1, null]", [1, nil]),
        reject("list<int>", "[1, null]", "$.v[1]: expected int, found null"),
        reject("list<int>", "5", "$.v: expected list<int>, found number 5"),
        reject("list<int>", #"[1, "2"]"#, #"$.v[1]: expected int, found string "2""#),
        accept("set<string>", #"["a", "b", "a"]"#, ["a", "b", "a"]),
        reject("set<string>", #""a""#, #"$.v: expected set<string>, found string "a""#),
        accept("list<Target>", #"[{"code": "a"}, "b"]"#, [["code": "a"], "b"]),
        reject("list<Target>", "[null]", "$.v[0]: expected a Target document or primary key, found null"),
        // map
        accept("map<int>", #"{"a": 1, "b": 2}"#, ["a": 1, "b": 2]),
        accept("map<int>", "null", [:]),
        reject("map<int>", "[1]", "$.v: expected map<int>, found array"),
        reject("map<int>", #"{"a": "1"}"#, #"$.v.a: expected int, found string "1""#),
        reject("map<int>", #"{"a.b": 1}"#, "$.v: map key 'a.b' contains '.' (percent-encode map keys to store it)"),
        reject("map<int>", #"{"$a": 1}"#, "$.v: map key '$a' starts with '$' (percent-encode map keys to store it)"),
        accept("map<int>", #"{"a.b": 1, "$c": 2, "5%": 3}"#, ["a%2Eb": 1, "%24c": 2, "5%25": 3], encodeKeys),
        accept("mixed", #"{"$c": 2}"#, ["%24c": 2], encodeKeys),
        reject("map<int>", #"{"a": 1, "a": 2}"#, "$.v: duplicate key 'a'"),
        accept("map<string?>", #"{"a": null}"#, ["a": nil]),
    ]

    static let schemaPrefix = """
        types:
          Target:
            primaryKey: code
            properties:
              code: string
              n: int?
          Keyless:
            properties:
              name: string?
          Spot:
            embedded: true
            properties:
              x: int

        """

    @Test(arguments: cases)
    func aRowOfTheTypeTable(_ example: MapperCase) throws {
        let schema = try Schema(yaml: Self.schemaPrefix + "  T:\n    properties:\n      v: \"\(example.type)\"\n")
        let mapper = DocumentMapper(schema: schema, options: example.options, file: "doc.json")
        let text = #"{"v": "# + example.json + "}"
        let document = try #require(try JSONReader(bytes: Array(text.utf8), file: "doc.json").next())
        switch example.expected {
        case .accept(let value):
            do {
                let mapped = try mapper.map(document, as: "T")
                #expect(mapped.value == ["v": value])
            } catch {
                Issue.record("refused: \(error)")
            }
        case .reject(let message):
            do {
                let mapped = try mapper.map(document, as: "T")
                Issue.record("accepted as \(mapped.value)")
            } catch {
                #expect(error.allErrors.count == 1)
                #expect(error.allErrors.first.map { "\($0.path ?? ""): \($0.message)" } == message)
                #expect(error.allErrors.first?.file == "doc.json")
            }
        }
    }

    @Test func theTableHasAtLeastAHundredRows() {
        #expect(Self.cases.count >= 100)
    }
}
