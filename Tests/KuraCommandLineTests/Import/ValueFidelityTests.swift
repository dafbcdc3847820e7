import Foundation
import GRDB
import Kura
import KuraTestSupport
import Testing

/// Values come back as they went in, or are refused with a message: a date holds
/// whole milliseconds within JavaScript's range, data holds bytes of the generic binary subtype, and
/// a double or float keeps the sign of zero.
@Suite struct ValueFidelityTests: SamplesRealmSuite {
    static let schema = """
        schemaVersion: 1
        types:
          Sample:
            primaryKey: id
            properties:
              id: int
              when: date?
              bytes: data?
              real: double?
              single: float?
              reals: list<double>
              any: mixed
        """

    let samples: SamplesRealmFolder

    init() throws { samples = try SamplesRealmFolder(schema: try Schema(yaml: Self.schema), realmName: "samples.realm") }

    /// The errors mapping one JSON document gives, one line each, or the mapped value.
    static func mapped(_ json: String, _ options: MappingOptions = MappingOptions()) throws -> String {
        let mapper = DocumentMapper(schema: try Schema(yaml: schema), options: options, file: "in.json")
        let node = try #require(try JSONReader(bytes: Array(json.utf8), file: "in.json").next())
        do {
            return "\(try mapper.map(node, as: "Sample").value)"
        } catch {
            return "\(error)"
        }
    }

    // MARK: Dates

    @Test func aDateWithDigitsBelowAMillisecondIsRefused() throws {
        let refused = try Self.mapped(#"{"id": 1, "when": {"$date": "2024-05-01T12:00:00.1234Z"}}"#)
        #expect(refused == """
            in.json:1:29: error: $.when.$date: expected a date in whole milliseconds, found string "2024-05-01T12:00:00.1234Z" (a date holds no finer digits)
            """)
        #expect(try Self.mapped(#"{"id": 1, "any": {"$date": "2024-05-01T12:00:00.000001Z"}}"#).contains(
            "$.any.$date: expected a date in whole milliseconds"))
        #expect(try Self.mapped(#"{"id": 1, "when": "2024-05-01T12:00:00.0005Z"}"#, MappingOptions(dateStrategy: .iso8601)).contains(
            "$.when: expected a date in whole milliseconds"))
        // Zeros below the millisecond lose nothing.
        #expect(try Self.mapped(#"{"id": 1, "when": {"$date": "2024-05-01T12:00:00.123000Z"}}"#).contains("2024-05-01T12:00:00.123Z"))
    }

    @Test func aYAMLTimestampWithDigitsBelowAMillisecondIsRefused() throws {
        let reader = YAMLReader(text: "id: 1\nwhen: 2024-05-01T12:00:00.1234Z\n", file: "in.yaml")
        expectKuraError(.document) { try reader.next() }
        do {
            _ = try YAMLReader(text: "id: 1\nwhen: 2024-05-01T12:00:00.1234Z\n", file: "in.yaml").next()
        } catch {
            #expect(error.description == "in.yaml:2:7: error: YAML timestamp '2024-05-01T12:00:00.1234Z' has digits below a millisecond, which a date cannot hold")
        }
        let node = try #require(try YAMLReader(text: "when: 2024-05-01T12:00:00.123000Z\n", file: "in.yaml").next())
        #expect(node.value != .null)
    }

    @Test func numericDatesOutsideTheRangeAreRefusedNotClamped() throws {
        let seconds = MappingOptions(dateStrategy: .secondsSince1970)
        let millis = MappingOptions(dateStrategy: .millisecondsSince1970)
        let range = "expected a date within years -271821 to 275760"
        #expect(try Self.mapped(#"{"id": 1, "when": {"$date": 8640000000000001}}"#) == """
            in.json:1:29: error: $.when.$date: \(range), found number 8640000000000001
            """)
        #expect(try Self.mapped(#"{"id": 1, "when": {"$date": {"$numberLong": "-9223372036854775808"}}}"#).contains(
            #"$.when.$date.$numberLong: \#(range), found string "-9223372036854775808""#))
        #expect(try Self.mapped(#"{"id": 1, "when": {"$date": "+275761-01-01T00:00:00Z"}}"#).contains("$.when.$date: \(range)"))
        #expect(try Self.mapped(#"{"id": 1, "when": 1e300}"#, seconds).contains("$.when: \(range), found number 1e300"))
        #expect(try Self.mapped(#"{"id": 1, "when": 9223372036854775807}"#, seconds).contains("$.when: \(range)"))
        #expect(try Self.mapped(#"{"id": 1, "when": -8640000000000001}"#, millis).contains("$.when: \(range)"))
        #expect(try Self.mapped(#"{"id": 1, "when": 1.0005}"#, seconds).contains("$.when: expected a date in whole milliseconds, found number 1.0005"))
        #expect(try Self.mapped(#"{"id": 1, "when": 1.5}"#, millis).contains("$.when: expected a date in whole milliseconds"))
        // What the range holds is kept exactly, to its ends.
        #expect(try Self.mapped(#"{"id": 1, "when": 1.5}"#, seconds).contains("1970-01-01T00:00:01.500Z"))
        #expect(try Self.mapped(#"{"id": 1, "when": 1.5e3}"#, millis).contains("1970-01-01T00:00:01.500Z"))
        #expect(try Self.mapped(#"{"id": 1, "when": {"$date": 8640000000000000}}"#).contains("+275760-09-13T00:00:00.000Z"))
        #expect(try Self.mapped(#"{"id": 1, "when": {"$date": -8640000000000000}}"#).contains("-271821-04-20T00:00:00.000Z"))
    }

    @Test func aSwiftDateOutsideTheRangeIsRefused() throws {
        let realm = try Realm(path: realmPath)
        let far = Date(timeIntervalSince1970: 1e13)
        #expect(throws: KuraError.store(.typeMismatch, "Sample.when: expected a date within years -271821 to 275760, found date \(Value.date(far))")) {
            try realm.write { try realm.create("Sample", value: ["id": 1, "when": .date(far)]) }
        }
        #expect(try realm.count("Sample") == 0)
    }

    @Test func aSchemaDefaultDateMustBeOneADateHolds() throws {
        for text in ["2024-05-01T12:00:00.1234Z", "+300000-01-01T00:00:00Z"] {
            let yaml = "schemaVersion: 1\ntypes:\n  T:\n    properties:\n      d: { type: date, default: \"\(text)\" }\n"
            expectKuraError(.schema) { try Schema(yaml: yaml) }
            do {
                _ = try Schema(yaml: yaml)
            } catch {
                #expect("\(error)".hasSuffix("T.d: default '\(text)' is not a valid date"))
            }
        }
    }

    @Test func encodingAModelWithADateBeyondTheRangeIsRefused() throws {
        let encoder = try DocumentEncoder(models: [DatedNote.self], format: .jsonl)
        let far = DatedNote(title: "far", when: Date(timeIntervalSince1970: -1e13))
        #expect(throws: (any Error).self) { try encoder.encode([far]) }
        do {
            _ = try encoder.encode([far])
        } catch {
            #expect("\(error)".contains("expected a date within years -271821 to 275760, found date"))
        }
        let near = DatedNote(title: "near", when: Date(timeIntervalSince1970: 8.64e12))
        #expect(String(decoding: try encoder.encode([near]), as: UTF8.self).contains("8640000000000000"))
    }

    // MARK: Binary subtypes

    @Test func aBinarySubtypeOtherThanGenericIsRefused() throws {
        let refused = try Self.mapped(#"{"id": 1, "bytes": {"$binary": {"base64": "AAE=", "subType": "04"}}}"#)
        #expect(refused == """
            in.json:1:62: error: $.bytes.$binary.subType: expected subType "00" (generic binary), found string "04" (a data value keeps no other subtype)
            """)
        #expect(try Self.mapped(#"{"id": 1, "any": {"$binary": {"base64": "AAE=", "subType": "80"}}}"#).contains(
            #"$.any.$binary.subType: expected subType "00" (generic binary), found string "80""#))
        #expect(try Self.mapped(#"{"id": 1, "bytes": {"$binary": {"base64": "AAE=", "subType": "00"}}}"#).contains("bytes"))
        #expect(!(try Self.mapped(#"{"id": 1, "bytes": {"$binary": {"base64": "AAE=", "subType": "00"}}}"#).contains("error")))
        let yaml = try #require(try YAMLReader(text: "id: 1\nbytes: {$binary: {base64: AAE=, subType: 00}}\n").next())
        let mapper = DocumentMapper(schema: try Schema(yaml: Self.schema), file: "in.yaml")
        #expect(try mapper.map(yaml, as: "Sample").value == ["id": 1, "bytes": .data(Data([0, 1]))])
    }

    // MARK: Round trips

    /// Imports `text` with `kura`, exports the realm in `format` and imports that into a new realm,
    /// whose export must be the same bytes.
    func roundTrip(_ text: String, named name: String, format: String) throws -> String {
        let input = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        let imported = try Fixtures.run(kura, ["import", realmPath, input, "--type", "Sample"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let first = try Fixtures.run(kura, ["export", realmPath, "--format", format])
        #expect(first.status == 0, "\(first.stderr)")
        let again = folder.appendingPathComponent("again-\(format).realm").path
        _ = try Realm(path: again, schema: try Schema(yaml: Self.schema))
        let exported = folder.appendingPathComponent("export.\(format)").path
        try Data(first.stdout.utf8).write(to: URL(fileURLWithPath: exported))
        let reimported = try Fixtures.run(kura, ["import", again, exported, "--format", format])
        #expect(reimported.status == 0, "\(reimported.stderr)")
        let second = try Fixtures.run(kura, ["export", again, "--format", format])
        #expect(second.stdout == first.stdout)
        return first.stdout
    }

    @Test(arguments: ["json", "jsonl", "yaml"])
    func datesAtTheEndsOfTheRangeComeBackAsTheyWentIn(format: String) throws {
        let text = """
            [{"id": 1, "when": {"$date": 8640000000000000}, "bytes": {"$binary": {"base64": "AAE=", "subType": "00"}}},
             {"id": 2, "when": {"$date": "-271821-04-20T00:00:00.000Z"}, "any": {"$date": "2024-05-01T12:00:00.999Z"}}]
            """
        let exported = try roundTrip(text, named: "dates.json", format: format)
        // Beyond year 9999 a date is written as its milliseconds.
        #expect(exported.contains(#""8640000000000000""#))
        #expect(exported.contains(#""-8640000000000000""#))
        #expect(exported.contains("2024-05-01T12:00:00.999Z"))
    }

    // MARK: Negative zero

    @Test(arguments: ["json", "jsonl", "yaml"])
    func negativeZeroComesBackNegative(format: String) throws {
        let text = """
            [{"id": 1, "real": -0.0, "single": -0.0, "reals": [-0.0, 0.0, -0], "any": -0.0},
             {"id": 2, "real": -0, "single": {"$numberDouble": "-0.0"}, "reals": [1.5]}]
            """
        let exported = try roundTrip(text, named: "zeros.json", format: format)
        let realm = try Realm(path: realmPath)
        for id: Int64 in [1, 2] {
            let sample = try #require(try realm.object(ofType: "Sample", forPrimaryKey: .int(id)))
            guard case .double(let real) = try sample.value(forKey: "real"), case .float(let single) = try sample.value(forKey: "single") else {
                Issue.record("sample \(id): not a double and a float")
                continue
            }
            #expect(real == 0 && real.sign == .minus)
            #expect(single == 0 && single.sign == .minus)
        }
        let first = try #require(try realm.object(ofType: "Sample", forPrimaryKey: 1))
        guard case .list(let reals) = try first.value(forKey: "reals") else {
            Issue.record("reals is not a list")
            return
        }
        #expect(reals.map { if case .double(let x) = $0 { x.sign == .minus } else { false } } == [true, false, true])
        #expect(exported.contains("-0.0"))
        #expect(try Fixtures.problems(realm) == [])
    }

    @Test(arguments: [UpdatePolicy.update, .modified])
    func anUpdateWritesTheSignOfZeroItIsGiven(mode: UpdatePolicy) throws {
        let realm = try Realm(path: realmPath)
        try realm.write { try realm.create("Sample", value: ["id": 1, "real": 0.0, "single": .float(0), "reals": [0.0], "any": 0.0]) }
        let update: Value = ["id": 1, "real": .double(-0.0), "single": .float(-0.0), "reals": [.double(-0.0)], "any": .double(-0.0)]
        try realm.write { try realm.create("Sample", value: update, update: mode) }
        let values = try #require(try realm.object(ofType: "Sample", forPrimaryKey: 1)).values()
        let signs = ["real", "single", "any"].map { name -> FloatingPointSign? in
            switch values[name] {
            case .double(let x)?: x.sign
            case .float(let x)?: x.sign
            default: nil
            }
        }
        #expect(signs == [.minus, .minus, .minus])
        guard case .list(let reals)? = values["reals"], case .double(let element)? = reals.first else {
            Issue.record("reals: \(String(describing: values["reals"]))")
            return
        }
        #expect(element.sign == .minus)
    }

    /// Realms made before float and double columns became `ANY` declared them `REAL`: they still
    /// check clean and are read and written as before.
    @Test func aRealmWithREALColumnsOfAnEarlierVersionStillChecksClean() throws {
        do {
            let realm = try Realm(path: realmPath)
            try realm.write { try realm.create("Sample", value: ["id": 1, "real": 1.5, "reals": [2.5]]) }
        }
        try DatabaseQueue(path: realmPath).writeWithoutTransaction { db in
            try db.execute(sql: """
                PRAGMA writable_schema = ON;
                UPDATE sqlite_master SET sql = replace(replace(sql, '"real" ANY', '"real" REAL'), '"single" ANY', '"single" REAL')
                    WHERE name = 'Sample';
                UPDATE sqlite_master SET sql = replace(sql, '"#value" ANY', '"#value" REAL') WHERE name = 'Sample.reals';
                """)
        }
        let columns = try DatabaseQueue(path: realmPath).read { db in try db.columns(in: "Sample").map(\.type) }
        #expect(columns.contains("REAL"))
        let realm = try Realm(path: realmPath)
        try realm.write { try realm.create("Sample", value: ["id": 2, "real": 3.0, "single": .float(2), "reals": [4.0]]) }
        #expect(try Fixtures.problems(realm) == [])
        #expect(try realm.object(ofType: "Sample", forPrimaryKey: 2)?.value(forKey: "real") == .double(3))
    }
}

/// A model with a date, for `ValueFidelityTests`.
struct DatedNote: KuraObject {
    var title: String
    var when: Date
}
