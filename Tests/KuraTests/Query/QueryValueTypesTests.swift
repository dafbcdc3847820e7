import Foundation
import Kura
import KuraTestSupport
import Testing

/// Predicates and sorting on every scalar kind and on collections of scalars, mixed values and
/// maps of objects, on a realm file.
@Suite struct QueryValueTypesTests {
    static let schema = """
        types:
          Gadget:
            properties:
              name: string
              flag: bool
              ratio: double
              weight: float
              price: decimal?
              code: objectId?
              tag: uuid?
              blob: data?
              scores: list<int>
              labels: list<string?>
              things: list<mixed>
              parts: map<Part?>
              favorite: Part?
          Part:
            properties:
              label: string
              holders: { linkingObjects: Gadget.parts }
              favoredBy: { linkingObjects: Gadget.favorite }
          Log:
            asymmetric: true
            properties:
              message: string
        """
    static let firstCode = "507f1f77bcf86cd799439011"
    static let secondCode = "507f1f77bcf86cd799439012"
    static let firstTag = "6F9619FF-8B86-D011-B42D-00C04FC964FF"

    let realm: Realm

    /// Gadgets one, two, three, in that order.
    init() throws {
        realm = try Realm(path: try Fixtures.realmPath(), schema: try Schema(yaml: Self.schema))
        let firstCode = Value.objectId(try #require(ObjectId(hex: Self.firstCode)))
        let secondCode = Value.objectId(try #require(ObjectId(hex: Self.secondCode)))
        let firstTag = Value.uuid(try #require(UUID(uuidString: Self.firstTag)))
        let secondTag = Value.uuid(UUID())
        let prices = try ["1.50", "10", "9.99"].map { Value.decimal(try #require(Decimal128($0))) }
        try realm.write {
            let part = try realm.create("Part", value: ["label": "p1"])
            let spare = try realm.create("Part", value: ["label": "p2"])
            try realm.create("Gadget", value: [
                "name": "one", "flag": true, "ratio": 0.5, "weight": .float(0.1), "price": prices[0], "code": firstCode,
                "tag": firstTag, "blob": .data(Data("abc".utf8)), "scores": [1, 2, 3], "labels": ["x", nil],
                "things": [1, "two", 3.5], "parts": ["a": .object(part.ref)], "favorite": .object(spare.ref),
            ])
            try realm.create("Gadget", value: [
                "name": "two", "flag": false, "ratio": 2.0, "weight": .float(2.5), "price": prices[1], "code": secondCode,
                "tag": secondTag, "blob": .data(Data("xyz".utf8)), "things": [true], "favorite": .object(spare.ref),
            ])
            try realm.create("Gadget", value: [
                "name": "three", "flag": false, "ratio": -1.0, "weight": .float(0), "price": prices[2], "scores": [5],
                "labels": ["y"], "parts": ["b": nil],
            ])
        }
    }

    func names(_ predicate: String?, sortedBy: String? = nil) throws -> [String] {
        try realm.objects("Gadget", where: predicate, sortedBy: sortedBy).map { object in
            guard case .string(let name) = try object["name"] else { return "<no name>" }
            return name
        }
    }

    @Test func scalarsOfEveryKind() throws {
        let cases: KeyValuePairs<String, [String]> = [
            "flag == true": ["one"],
            "flag != true": ["two", "three"],
            "flag IN {false}": ["two", "three"],
            "ratio > 1": ["two"],
            "ratio < 0": ["three"],
            "ratio BETWEEN {-1, 0.5}": ["one", "three"],
            // The literal is rounded to float as the stored value was.
            "weight == 0.1": ["one"],
            "weight >= 2": ["two"],
            // Decimals compare by value: 1.5 equals the stored 1.50, and 9.99 < 10.
            "price == 1.5": ["one"],
            "price != 1.500": ["two", "three"],
            "price > 9.5": ["two", "three"],
            "price < 10": ["one", "three"],
            "price IN {10.0, 2}": ["two"],
            "code == oid(\(Self.firstCode))": ["one"],
            "code > oid(\(Self.firstCode))": ["two"],
            "code == nil": ["three"],
            "tag == uuid(\(Self.firstTag.lowercased()))": ["one"],
            "tag != nil": ["one", "two"],
            "blob == 'abc'": ["one"],
            "blob BEGINSWITH 'xy'": ["two"],
            "blob CONTAINS 'b'": ["one"],
            "blob == nil": ["three"],
        ]
        for (predicate, expected) in cases {
            #expect(try names(predicate) == expected, "\(predicate)")
        }
    }

    @Test func collectionsOfScalarsMixedAndMapsOfObjects() throws {
        let cases: KeyValuePairs<String, [String]> = [
            "ANY scores > 2": ["one", "three"],
            "ALL scores > 2": ["two", "three"],
            "NONE scores == 5": ["one", "two"],
            "scores.@count == 0": ["two"],
            "ANY labels == nil": ["one"],
            "ANY labels ==[c] 'Y'": ["three"],
            "ANY things == 'two'": ["one"],
            "ANY things == true": ["two"],
            "ANY things > 3": ["one"],
            "ANY things == 1.0": ["one"],
            "things.@count >= 1": ["one", "two"],
            "parts.@count == 1": ["one", "three"],
            "ANY parts.label == 'p1'": ["one"],
            "ANY parts.@values.label BEGINSWITH 'p'": ["one"],
            "ANY parts.@keys == 'b'": ["three"],
        ]
        for (predicate, expected) in cases {
            #expect(try names(predicate) == expected, "\(predicate)")
        }
    }

    @Test func backlinksFromMapsAndToOneLinks() throws {
        let labels = { (predicate: String) throws -> [String] in
            try realm.objects("Part", where: predicate).map { object in
                guard case .string(let label) = try object["label"] else { return "<no label>" }
                return label
            }
        }
        #expect(try labels("ANY holders.name == 'one'") == ["p1"])
        #expect(try labels("holders.@count == 0") == ["p2"])
        #expect(try labels("favoredBy.@count == 2") == ["p2"])
        #expect(try labels("ANY favoredBy.flag == false") == ["p2"])
        #expect(try labels("ALL favoredBy.flag == false") == ["p1"])
        #expect(try names("favorite.favoredBy.@count == 2") == ["one", "two"])
        #expect(try names("ANY favorite.favoredBy.name == 'two'") == ["one", "two"])
    }

    @Test func asymmetricTypesAreNotQueried() throws {
        try realm.write { try realm.create("Log", value: ["message": "started"]) }
        #expect(throws: KuraError.query(.notQueryable, "Log is asymmetric: its objects can be inserted and exported, not queried")) {
            try realm.objects("Log", where: "message == 'started'")
        }
        expectKuraError(.query) { try realm.write { try realm.delete("Log", where: nil) } }
        #expect(try realm.count("Log") == 1)
    }

    @Test func sortingByDecimalsIsByValue() throws {
        // As text, "1.50" < "10" < "9.99".
        #expect(try names(nil, sortedBy: "price") == ["one", "three", "two"])
        #expect(try names(nil, sortedBy: "flag desc, ratio") == ["one", "three", "two"])
        #expect(try names(nil, sortedBy: "weight DESC") == ["two", "one", "three"])
    }

    @Test func mismatchesAreRefused() throws {
        let cases: KeyValuePairs<String, String> = [
            "flag < true": "where: column 6: error: Gadget.flag: '<' does not apply to bool",
            "flag == 1": "where: column 9: error: Gadget.flag: expected bool, found int 1",
            "ratio == 'x'": #"where: column 10: error: Gadget.ratio: expected double, found string "x""#,
            "weight > 1e39": "where: column 10: error: Gadget.weight: expected float, found number 1e39 (out of range)",
            "name BEGINSWITH 1": "where: column 17: error: Gadget.name: expected string, found int 1",
            "code == '\(Self.firstCode)'": #"where: column 9: error: Gadget.code: expected objectId, found string "\#(Self.firstCode)""#,
            "code == oid(123)": "where: column 9: error: oid(123) is not an object id: it needs 24 hexadecimal digits",
            "tag > uuid(\(Self.firstTag))": "where: column 5: error: Gadget.tag: '>' does not apply to uuid",
            "blob LIKE 'a*'": "where: column 6: error: Gadget.blob: LIKE does not apply to data",
            "price == 'abc'": #"where: column 10: error: Gadget.price: expected decimal, found string "abc""#,
            "ANY things BEGINSWITH 3": "where: column 23: error: Gadget.things: BEGINSWITH needs a string, found int 3",
            "things.@count.x > 1": "where: column 15: error: Gadget.things.@count cannot be followed by '.x'",
        ]
        for (predicate, message) in cases {
            do {
                _ = try names(predicate)
                Issue.record("\(predicate) was accepted")
            } catch let error as KuraError {
                #expect(error.description == message, "\(predicate)")
            }
        }
    }
}
