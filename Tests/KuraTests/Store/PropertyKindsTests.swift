import Foundation
import Kura
import KuraTestSupport
import Testing

/// Every property kind is stored in a real realm of each engine and read back exactly.
@Suite struct PropertyKindsTests {
    static let schemaText = """
        schemaVersion: 3
        types:
          Target:
            primaryKey: code
            properties:
              code: string
          Everything:
            primaryKey: key
            properties:
              key: objectId
              flag: bool
              small: int
              single: float
              real: double
              text: string
              when: date
              blob: data
              amount: decimal
              token: uuid
              anything: mixed
              maybeInt: int?
              maybeText: string?
              maybeDate: date?
              target: Target?
              ints: list<int>
              maybeStrings: list<string?>
              tags: set<string>
              scores: map<double>
              mixedList: list<mixed>
              targets: list<Target>
              targetsByName: map<Target?>
        """

    let objectId = ObjectId(hex: "507f1f77bcf86cd799439011")!
    let token = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    func everything() -> Value {
        [
            "key": .objectId(objectId),
            "flag": true,
            "small": .int(Int64.min),
            "single": .float(0.1),
            "real": .double(0.1),
            "text": "héllo \u{1F600} \"quoted\"",
            "when": .date(Date(timeIntervalSince1970: 1_700_000_000.123)),
            "blob": .data(Data([0, 1, 2, 254, 255])),
            "amount": .decimal(Decimal128("-1234567890123456789012345678.9050")!),
            "token": .uuid(token),
            "anything": ["nested": [1, "two", ["three": 3.5], .null, .bool(false)], "n": .int(Int64.max)],
            "maybeInt": nil,
            "maybeText": nil,
            "maybeDate": nil,
            "target": ["code": "T1"],
            "ints": [.int(Int64.max), 0, -1],
            "maybeStrings": ["a", nil, "c"],
            "tags": ["x", "y", "x"],
            "scores": ["math": 1.5, "art": -0.25],
            "mixedList": [1, "one", .double(1.0), .list([.null])],
            "targets": [["code": "T2"], "T1"],
            "targetsByName": ["first": "T1", "none": nil],
        ]
    }

    @Test(arguments: RealmEngine.tested) func everyKindRoundTripsThroughStorage(on engine: RealmEngine) throws {
        let path = try engine.freshRealm()
        let schema = try Schema(yaml: Self.schemaText)
        do {
            let realm = try Realm(path: path, schema: schema)
            try realm.write { try realm.create("Everything", value: everything()) }
        }
        let realm = try Realm(path: path)
        let object = try #require(try realm.object(ofType: "Everything", forPrimaryKey: .objectId(objectId)))
        let values = try object.values()
        #expect(values["flag"] == true)
        #expect(values["small"] == .int(Int64.min))
        #expect(values["single"] == .float(0.1))
        #expect(values["single"] != .float(Float(0.1000001)))
        #expect(values["real"] == .double(0.1))
        #expect(values["text"] == "héllo \u{1F600} \"quoted\"")
        #expect(values["blob"] == .data(Data([0, 1, 2, 254, 255])))
        #expect(values["amount"]?.description == "-1234567890123456789012345678.9050")
        #expect(values["token"] == .uuid(token))
        #expect(values["anything"] == ["nested": [1, "two", ["three": 3.5], .null, .bool(false)], "n": .int(Int64.max)])
        #expect(values["maybeInt"] == .null)
        #expect(values["maybeText"] == .null)
        #expect(values["maybeDate"] == .null)
        #expect(values["ints"] == [.int(Int64.max), 0, -1])
        #expect(values["maybeStrings"] == ["a", nil, "c"])
        #expect(values["tags"] == ["x", "y"])
        #expect(values["scores"] == ["art": -0.25, "math": 1.5])
        #expect(values["mixedList"] == [1, "one", .double(1.0), .list([.null])])
        guard case .date(let when)? = values["when"] else {
            Issue.record("when is not a date")
            return
        }
        #expect(DateFormatting.iso8601(when) == "2023-11-14T22:13:20.123Z")
        let target = try #require(try object.link("target"))
        #expect(try target["code"] == "T1")
        #expect(try object.objects("targets").map { try $0["code"] } == ["T2", "T1"])
        guard case .map(let byName)? = values["targetsByName"] else {
            Issue.record("targetsByName is not a map")
            return
        }
        #expect(byName["none"] == .null)
        #expect(byName["first"] == .object(target.ref))
    }

    @Test func floatAndDoubleKeepTheirOwnPrecision() throws {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Schema(yaml: Self.schemaText))
        let third = 1.0 / 3.0
        let object = try realm.write {
            try realm.create("Everything", value: everything().merging(["single": .double(third), "real": .double(third)]))
        }
        #expect(try object["single"] == .float(Float(third)))
        #expect(try object["real"] == .double(third))
        #expect(try object["single"] != .float(Float(0.3333)))
    }

    @Test(arguments: RealmEngine.tested) func strictTypesRejectMismatchedValues(on engine: RealmEngine) throws {
        let realm = try engine.makeRealm(try Schema(yaml: Self.schemaText))
        try realm.write {
            #expect(throws: KuraError.store(.typeMismatch, "Everything.small: expected int, found string \"3\"")) {
                try realm.create("Everything", value: everything().merging(["small": "3"]))
            }
            #expect(throws: KuraError.store(.missingValue, "Everything.text: missing value for required string property")) {
                try realm.create("Everything", value: everything().removing("text"))
            }
            #expect(throws: KuraError.store(.missingValue, "Everything.flag: null is not allowed for required bool property")) {
                try realm.create("Everything", value: everything().merging(["flag": nil]))
            }
            #expect(throws: KuraError.store(.invalidMapKey, "Everything.scores: map key 'a.b' contains '.'")) {
                try realm.create("Everything", value: everything().merging(["scores": ["a.b": 1.0]]))
            }
            #expect(throws: KuraError.store(.invalidMapKey, "Everything.scores: map key '$x' starts with '$'")) {
                try realm.create("Everything", value: everything().merging(["scores": ["$x": 1.0]]))
            }
            #expect(throws: KuraError.store(.linkTargetNotFound, "Everything.target: no Target with primary key \"nope\"")) {
                try realm.create("Everything", value: everything().merging(["target": "nope"]))
            }
        }
        #expect(try realm.count("Everything") == 0)
    }
}

extension Value {
    /// This map with `entries` set over its own.
    func merging(_ entries: [String: Value]) -> Value {
        guard case .map(var map) = self else { return self }
        for (key, value) in entries { map[key] = value }
        return .map(map)
    }

    /// This map without `key`.
    func removing(_ key: String) -> Value {
        guard case .map(var map) = self else { return self }
        map[key] = nil
        return .map(map)
    }
}
