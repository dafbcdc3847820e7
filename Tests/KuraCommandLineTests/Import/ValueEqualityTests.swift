import Foundation
import Kura
import KuraTestSupport
import Testing

/// One equality and order of values wherever Kura compares them, as in Realm: numbers of every kind
/// by value (decimal `1.00` equals int `1`), NaN equal to itself and below every number, a bool never
/// a number. Checked in predicates, sets, sorting and `modified` updates.
@Suite struct ValueEqualityTests {
    static let schema = """
        types:
          Item:
            primaryKey: name
            properties:
              name: string
              dec: decimal?
              dbl: double?
              flt: float?
              m: mixed
              decs: set<decimal>
              dbls: set<double>
              flts: set<float>
              ms: set<mixed>
              decList: list<decimal>
              things: list<mixed>
              byKey: map<mixed>
              link: Item?
        """

    let folder: URL
    let realmPath: String
    let realm: Realm

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        realmPath = folder.appendingPathComponent("values.realm").path
        try String(Self.schema).write(to: folder.appendingPathComponent("schema.yaml"), atomically: true, encoding: .utf8)
        realm = try Realm(path: realmPath, schema: try Schema(yaml: Self.schema))
    }

    static func decimal(_ text: String) throws -> Value { .decimal(try #require(Decimal128(text))) }

    /// Items whose `dec` and `m` hold numbers of every kind, NaN, infinities, a bool and a string.
    func fill() throws {
        let rows: [(String, Value, Value)] = [
            ("decOne", try Self.decimal("1.00"), try Self.decimal("1.0")),
            ("nan", try Self.decimal("NaN"), try Self.decimal("NaN")),
            ("intOne", try Self.decimal("0.5"), .int(1)),
            ("doubleOne", try Self.decimal("10"), .double(1.0)),
            ("bool", try Self.decimal("-Infinity"), .bool(true)),
            ("string", try Self.decimal("Infinity"), .string("1")),
            ("doubleTenth", try Self.decimal("0.1"), .double(0.1)),
            ("decTenth", .null, try Self.decimal("0.10")),
            ("floatHalf", try Self.decimal("1.5"), .float(1.5)),
            ("negZero", try Self.decimal("-0.00"), .double(-0.0)),
        ]
        try realm.write {
            for (name, dec, mixed) in rows {
                try realm.create("Item", value: ["name": .string(name), "dec": dec, "m": mixed])
            }
            try realm.create("Item", value: [
                "name": "holder", "link": ["name": "linked", "dec": try Self.decimal("1E0")],
                "decList": .list([try Self.decimal("NaN"), try Self.decimal("0.9")]),
                "things": .list([.bool(true), try Self.decimal("2.50")]),
                "byKey": .map(["a": .float(2.5)]),
                "ms": .list([try Self.decimal("7.0")]),
            ])
        }
    }

    func names(_ predicate: String) throws -> [String] {
        try realm.objects("Item", where: predicate, sortedBy: "name").map { object in
            guard case .string(let name) = try object["name"] else { return "<no name>" }
            return name
        }
    }

    @Test func predicatesCompareNumbersOfEveryKindByValue() throws {
        try fill()
        let cases: KeyValuePairs<String, [String]> = [
            // Decimals: by value; NaN equals only NaN and lies below every number (as in Realm).
            "dec == 1": ["decOne", "linked"],
            "dec == 1.000": ["decOne", "linked"],
            "dec > 1": ["doubleOne", "floatHalf", "string"],
            "dec >= 1": ["decOne", "doubleOne", "floatHalf", "linked", "string"],
            "dec < 0.5": ["bool", "doubleTenth", "nan", "negZero"],
            "dec <= 0": ["bool", "nan", "negZero"],
            "dec == 0": ["negZero"],
            "dec == -0": ["negZero"],
            "dec BETWEEN {0.1, 1}": ["decOne", "doubleTenth", "intOne", "linked"],
            "dec IN {1, 10.0}": ["decOne", "doubleOne", "linked"],
            "NOT dec > 1": ["bool", "decOne", "decTenth", "doubleTenth", "holder", "intOne", "linked", "nan", "negZero"],
            "dec != 1": ["bool", "decTenth", "doubleOne", "doubleTenth", "floatHalf", "holder", "intOne", "nan", "negZero", "string"],
            // Mixed: an int, a float, a double and a decimal of one value are equal; a bool and a string are not numbers.
            "m == 1": ["decOne", "doubleOne", "intOne"],
            "m == 1.0": ["decOne", "doubleOne", "intOne"],
            "m != 1": ["bool", "decTenth", "doubleTenth", "floatHalf", "holder", "linked", "nan", "negZero", "string"],
            "m == 0.1": ["decTenth", "doubleTenth"],
            "m == 1.5": ["floatHalf"],
            "m > 1": ["floatHalf"],
            "m < 1": ["decTenth", "doubleTenth", "nan", "negZero"],
            "m == 0": ["negZero"],
            "m BETWEEN {0.1, 1}": ["decOne", "decTenth", "doubleOne", "doubleTenth", "intOne"],
            "m IN {1, 'x'}": ["decOne", "doubleOne", "intOne"],
            "m IN {1.5, '1'}": ["floatHalf", "string"],
            "m == true": ["bool"],
            // Through links and collections, the same rule.
            "link.dec == 1": ["holder"],
            "ANY decList > 0.5": ["holder"],
            "ANY decList < 0.5": ["holder"],
            "NONE decList < 0.5": ["bool", "decOne", "decTenth", "doubleOne", "doubleTenth", "floatHalf", "intOne", "linked", "nan", "negZero", "string"],
            "ANY things == 2.5": ["holder"],
            "ANY things == 1": [],
            "ANY byKey == 2.5": ["holder"],
            "ANY ms == 7": ["holder"],
            "ANY ms > 6.99": ["holder"],
        ]
        for (predicate, expected) in cases {
            #expect(try names(predicate) == expected.sorted(), "\(predicate)")
        }
    }

    @Test func nanAndInfinityLiteralsFollowTheSameOrder() throws {
        try fill()
        let all = ["bool", "decOne", "decTenth", "doubleOne", "doubleTenth", "floatHalf", "holder", "intOne", "linked", "nan", "negZero", "string"]
        let numbers = ["bool", "decOne", "doubleOne", "doubleTenth", "floatHalf", "intOne", "linked", "negZero", "string"]
        let mixedNumbers = ["decOne", "decTenth", "doubleOne", "doubleTenth", "floatHalf", "intOne", "negZero"]
        let cases: KeyValuePairs<String, [String]> = [
            "dec == NaN": ["nan"],
            "dec == -nan": ["nan"],
            "dec != NaN": all.filter { $0 != "nan" },
            "dec > NaN": numbers,
            "dec < -inf": ["nan"],
            "dec >= -Infinity": numbers,
            "dec == -INF": ["bool"],
            "dec < infinity": ["bool", "decOne", "doubleOne", "doubleTenth", "floatHalf", "intOne", "linked", "nan", "negZero"],
            "dec BETWEEN {NaN, 0}": ["bool", "nan", "negZero"],
            "dec IN {NaN, Infinity}": ["nan", "string"],
            "m == NaN": ["nan"],
            "m != NaN": all.filter { $0 != "nan" },
            "m > NaN": mixedNumbers,
            "m < NaN": [],
            "m >= -inf": mixedNumbers,
            "m IN {NaN, 1.5}": ["floatHalf", "nan"],
            "m BETWEEN {NaN, 0.1}": ["decTenth", "doubleTenth", "nan", "negZero"],
        ]
        for (predicate, expected) in cases {
            #expect(try names(predicate) == expected.sorted(), "\(predicate)")
        }
    }

    @Test func doublesAndFloatsMeetNaNAndInfinities() throws {
        let values: [(String, Double?)] = [("low", -.infinity), ("zero", -0.0), ("one", 1), ("high", .infinity), ("none", nil)]
        try realm.write {
            for (name, number) in values {
                try realm.create("Item", value: [
                    "name": .string(name), "dbl": number.map(Value.double) ?? .null, "flt": number.map { .float(Float($0)) } ?? .null,
                ])
            }
        }
        let cases: KeyValuePairs<String, [String]> = [
            "dbl == NaN": [],
            "dbl != NaN": ["high", "low", "none", "one", "zero"],
            "dbl > NaN": ["high", "low", "one", "zero"],
            "dbl <= NaN": [],
            "dbl >= -inf": ["high", "low", "one", "zero"],
            "dbl == infinity": ["high"],
            "dbl < INF": ["low", "one", "zero"],
            "dbl BETWEEN {NaN, 0}": ["low", "zero"],
            "dbl BETWEEN {0, NaN}": [],
            "dbl IN {NaN, 1}": ["one"],
            "dbl IN {NaN}": [],
            "dbl == 0": ["zero"],
            "flt == -inf": ["low"],
            "flt > NaN": ["high", "low", "one", "zero"],
            "flt == -0": ["zero"],
        ]
        for (predicate, expected) in cases {
            #expect(try names(predicate) == expected.sorted(), "\(predicate)")
        }
        expectKuraError(.query) { try names("name == NaN") }
    }

    @Test func sortingPutsNaNFirstAndEqualDecimalsTogether() throws {
        try fill()
        let sorted = try realm.objects("Item", where: "dec != nil", sortedBy: "dec, name").map { try $0["name"] }
        #expect(sorted == [
            "nan", "bool", "negZero", "doubleTenth", "intOne", "decOne", "linked", "floatHalf", "doubleOne", "string",
        ].map(Value.string))
    }

    @Test func mixedValuesSortByKindInRealmsOrderAndNumbersByValue() throws {
        let values: [(String, Value)] = [
            ("string", .string("b")), ("stringA", .string("a")), ("decimalTwo", try Self.decimal("2.00")), ("bool", .bool(false)),
            ("intThree", .int(3)), ("nan", try Self.decimal("NaN")), ("floatHalf", .float(0.5)), ("none", .null),
            ("doubleMinus", .double(-1)), ("date", .date(Date(timeIntervalSince1970: 0))), ("data", .data(Data([1]))),
            ("decimalBig", try Self.decimal("1E+30")), ("intMin", .int(Int64.min)), ("true", .bool(true)),
            ("dateEarly", .date(Date(timeIntervalSince1970: -86_400))), ("map", ["name": "x"]), ("list", [1]),
        ]
        try realm.write {
            let target = try realm.create("Item", value: ["name": "target"])
            try realm.create("Item", value: ["name": "link", "m": .object(target.ref)])
            for (name, value) in values {
                try realm.create("Item", value: ["name": .string(name), "m": value])
            }
        }
        let order = try realm.objects("Item", where: nil, sortedBy: "m, name").map { try $0["name"] }
        #expect(order == [
            "none", "target", "bool", "true", "nan", "intMin", "doubleMinus", "floatHalf", "decimalTwo", "intThree", "decimalBig",
            "stringA", "string", "data", "dateEarly", "date", "link", "list", "map",
        ].map(Value.string))
        let descending = try realm.objects("Item", where: "m > 0", sortedBy: "m desc").map { try $0["name"] }
        #expect(descending == ["decimalBig", "intThree", "decimalTwo", "floatHalf"].map(Value.string))
    }

    @Test func setsKeepOneElementPerValue() throws {
        try realm.write {
            try realm.create("Item", value: [
                "name": "sets",
                "decs": .list(try ["1.0", "1.00", "1", "2", "2.0E0", "0", "-0.00", "NaN", "NaN", "1E+1", "10"].map(Self.decimal)),
                "dbls": [0.0, -0.0, 1, 1.0, 2],
                "flts": .list([.float(0.5), .float(0.5), .double(0.5), .int(0)]),
                "ms": .list([
                    .int(1), .double(1.0), try Self.decimal("1.00"), .float(1), .bool(true), .string("1"), .null, .null,
                    .double(0.1), try Self.decimal("0.1"), .float(0.1), .int(0), .double(-0.0), try Self.decimal("-0"),
                ]),
            ])
            // Past the first few elements a set finds repeats by hashing: the same rule there.
            try realm.create("Item", value: [
                "name": "large",
                "decs": .list(try (1...20).map { try Self.decimal("\($0).0") } + (1...20).map { try Self.decimal("\($0)") }),
                "dbls": .list((1...20).map { .double(Double($0)) } + [.double(0), .double(-0.0)] + (1...20).map { .int(Int64($0)) }),
                "ms": .list((1...20).map { .int(Int64($0)) } + (1...20).map { try Self.decimal("\($0).00") } + [.double(1e17), .int(100_000_000_000_000_000)]),
            ])
        }
        let sets = try #require(try realm.object(ofType: "Item", forPrimaryKey: "sets"))
        #expect(try sets["decs"] == .list(try ["1.0", "2", "0", "NaN", "1E+1"].map(Self.decimal)))
        #expect(try sets["dbls"] == [0.0, 1.0, 2.0])
        #expect(try sets["flts"] == .list([.float(0.5), .float(0)]))
        // The first of equal elements is kept; a bool, a string, null and a float 0.1 (0.100000001…) stay apart.
        #expect(try sets["ms"] == .list([.int(1), .bool(true), .string("1"), .null, .double(0.1), .float(0.1), .int(0)]))
        let large = try #require(try realm.object(ofType: "Item", forPrimaryKey: "large"))
        #expect(try large["decs"] == .list(try (1...20).map { try Self.decimal("\($0).0") }))
        #expect(try large["dbls"] == .list((1...20).map { .double(Double($0)) } + [.double(0)]))
        #expect(try large["ms"] == .list((1...20).map { .int(Int64($0)) } + [.double(1e17)]))
        #expect(try Fixtures.problems(realm) == [])
    }

    @Test func modifiedLeavesEqualValuesAlone() throws {
        try realm.write {
            try realm.create("Item", value: [
                "name": "kept", "dec": try Self.decimal("1.0"), "m": try Self.decimal("2.0"),
                "decs": .list([try Self.decimal("3.0")]), "decList": .list([try Self.decimal("4.0")]),
                "ms": .list([.int(5)]), "things": .list([try Self.decimal("6.0")]),
            ])
        }
        let given: Value = [
            "name": "kept", "dec": try Self.decimal("1.00"), "m": try Self.decimal("2"),
            "decs": .list([try Self.decimal("3"), try Self.decimal("3.00")]), "decList": .list([try Self.decimal("4.00")]),
            "ms": .list([.double(5.0)]), "things": .list([try Self.decimal("6")]),
        ]
        try realm.write { try realm.create("Item", value: given, update: .modified) }
        let kept = try #require(try realm.object(ofType: "Item", forPrimaryKey: "kept"))
        #expect(try kept["dec"] == Self.decimal("1.0"))
        #expect(try kept["m"] == Self.decimal("2.0"))
        #expect(try kept["decs"] == .list([try Self.decimal("3.0")]))
        #expect(try kept["decList"] == .list([try Self.decimal("4.0")]))
        #expect(try kept["ms"] == .list([.int(5)]))
        #expect(try kept["things"] == .list([try Self.decimal("6.0")]))

        // A mixed value of another kind is a change (Realm compares kinds first); `update` writes what it is given.
        try realm.write { try realm.create("Item", value: ["name": "kept", "m": .int(2)], update: .modified) }
        #expect(try kept["m"] == .int(2))
        try realm.write { try realm.create("Item", value: given, update: .update) }
        #expect(try kept["dec"] == Self.decimal("1.00"))
        #expect(try kept["decs"] == .list([try Self.decimal("3")]))
    }

    @Test func exportWhereAndSetsRoundTripThroughTheCommandLine() throws {
        let kura = Fixtures.executable("kura")
        let schemaPath = folder.appendingPathComponent("schema.yaml").path
        let input = folder.appendingPathComponent("input.jsonl")
        try """
            {"name": "a", "dec": {"$numberDecimal": "1.00"}, "m": {"$numberDecimal": "1"}, "decs": [{"$numberDecimal": "1.0"}, {"$numberDecimal": "1.00"}, {"$numberDecimal": "1"}], "ms": [1, 1.0, {"$numberDecimal": "1.000"}, true, "1"], "dbls": [0.0, 1, 1.0]}
            {"name": "b", "dec": {"$numberDecimal": "NaN"}, "m": 1.0, "decs": [{"$numberDecimal": "NaN"}, {"$numberDecimal": "NaN"}, {"$numberDecimal": "2"}]}
            {"name": "c", "dec": {"$numberDecimal": "2"}, "m": true}
            {"name": "d", "dec": {"$numberDecimal": "0.5"}, "m": "1"}

            """.write(to: input, atomically: true, encoding: .utf8)
        let target = folder.appendingPathComponent("cli.realm").path
        #expect(try Fixtures.run(kura, ["init", target, "--schema", schemaPath]).status == 0)
        let imported = try Fixtures.run(kura, ["import", target, input.path, "--type", "Item"])
        #expect(imported.status == 0, "\(imported.stderr)")

        func selected(_ predicate: String) throws -> [String] {
            let run = try Fixtures.run(kura, ["export", target, "--type", "Item", "--where", predicate, "--sort", "name", "--format", "jsonl"])
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").compactMap { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
                return object["name"] as? String
            }
        }
        #expect(try selected("m == 1") == ["a", "b"])
        #expect(try selected("m != 1") == ["c", "d"])
        #expect(try selected("dec > 1") == ["c"])
        #expect(try selected("dec == 1") == ["a"])
        #expect(try selected("dec < 1") == ["b", "d"])
        #expect(try selected("ANY ms == 1.0") == ["a"])
        #expect(try selected("decs.@count == 1") == ["a"])
        #expect(try selected("dbls.@count == 2") == ["a"])

        let first = try Fixtures.run(kura, ["export", target, "--type", "Item", "--where", "name == 'a'", "--format", "jsonl"])
        #expect(first.stdout.contains(#""decs":[{"$numberDecimal":"1.0"}]"#), "\(first.stdout)")
        #expect(first.stdout.contains(#""ms":[1,true,"1"]"#), "\(first.stdout)")

        // Export, import into an empty realm, export again: the same bytes.
        let exported = folder.appendingPathComponent("first.json").path
        #expect(try Fixtures.run(kura, ["export", target, "--output", exported]).status == 0)
        let copy = folder.appendingPathComponent("copy.realm").path
        #expect(try Fixtures.run(kura, ["init", copy, "--schema", schemaPath]).status == 0)
        let reimported = try Fixtures.run(kura, ["import", copy, exported])
        #expect(reimported.status == 0, "\(reimported.stderr)")
        let again = folder.appendingPathComponent("second.json").path
        #expect(try Fixtures.run(kura, ["export", copy, "--output", again]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: exported)) == Data(contentsOf: URL(fileURLWithPath: again)))
    }
}
