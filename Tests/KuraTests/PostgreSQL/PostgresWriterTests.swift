import Foundation
import KuraTestSupport
import Testing

@testable import Kura

/// Writing a PostgreSQL realm through `PostgresWriter`, driven by the object writer as a realm
/// drives it, against the test server: the rows stored are checked exactly, for single inserts
/// and inserts held for COPY alike.
@Suite struct PostgresWriterTests {
    typealias Fixture = PostgresWriteFixture

    static let tricky = "nul\u{0}tab\tline\nback\\slash\r'quote\"é🐕"

    /// The decimal `text` as a value, exactly as written.
    static func decimal(_ text: String) throws -> Value {
        .decimal(try #require(Decimal128(text)))
    }

    /// Expects `got` to hold the cells of `want`, reals to the bit and NaN as NaN.
    func expectCells(_ got: [[StoredCell]], _ want: [[StoredCell]], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(got.count == want.count, "\(got) is not \(want)", sourceLocation: sourceLocation)
        for (gotRow, wantRow) in zip(got, want) {
            let same = gotRow.count == wantRow.count && zip(gotRow, wantRow).allSatisfy { left, right in
                if case .real(let x) = left, case .real(let y) = right, x.isNaN, y.isNaN { return true }
                return left.isIdentical(to: right)
            }
            #expect(same, "\(gotRow) is not \(wantRow)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [false, true])
    func scalarsAreStoredExactly(holding: Bool) throws {
        guard PostgresTestServer.isReady() else { return }
        let realm = try Fixture(label: "scalars")
        let decimal = try #require(Decimal128("1.50"))
        let oid = try #require(ObjectId(hex: "507f1f77bcf86cd799439011"))
        let uid = try #require(UUID(uuidString: "3B241101-E2BB-4255-8CAF-4136C566A962"))
        let when = Date(timeIntervalSince1970: 1_700_000_000.123)
        let blob = Data([0, 92, 9, 10, 13, 255])
        try realm.write(holding: holding) { transaction, _ in
            try Fixture.create(transaction, "Item", [
                "code": .string(Self.tricky), "count": .int(.min), "flag": true, "ratio": .double(-0.0), "small": .float(.nan),
                "price": .decimal(decimal), "when": .date(when), "blob": .data(blob), "oid": .objectId(oid), "uid": .uuid(uid),
                "note": "", "any": .string(Self.tricky),
            ])
            try Fixture.create(transaction, "Item", [
                "code": "inf", "count": .int(.max), "flag": false, "ratio": .double(.infinity), "small": .float(-.infinity),
                "any": .double(-.infinity),
            ])
            try Fixture.create(transaction, "Item", [
                "code": "neg", "count": 0, "flag": false, "ratio": .double(-.infinity), "small": .float(-0.0), "any": .float(.nan),
            ])
            try Fixture.create(transaction, "Item", ["code": "dec", "count": 1, "flag": true, "ratio": 0.1, "small": 0.5, "any": .decimal(decimal)])
        }
        let rows = try realm.rows(##"""
            SELECT "#id", "code", "count", "flag", "ratio", "small", "price", "when", "blob", "oid", "uid", "note", "any", "any#type"
            FROM "Item" ORDER BY "#id"
            """##)
        let millis = try #require(DateFormatting.storedMilliseconds(when))
        #expect(millis == 1_700_000_000_123)
        expectCells(rows, [
            [
                .integer(1), utf8(Self.tricky), .integer(.min), .integer(1), .real(-0.0), .real(.nan), utf8("1.50"), .integer(millis),
                .blob(blob), .blob(Data(oid.bytes)), .blob(uid.bytes), utf8(""), utf8(Self.tricky), .integer(MixedTag.string),
            ],
            [
                .integer(2), utf8("inf"), .integer(.max), .integer(0), .real(.infinity), .real(-.infinity), .null, .null, .null, .null,
                .null, .null, utf8("-Infinity"), .integer(MixedTag.double),
            ],
            [
                .integer(3), utf8("neg"), .integer(0), .integer(0), .real(-.infinity), .real(-0.0), .null, .null, .null, .null, .null,
                .null, utf8("NaN"), .integer(MixedTag.float),
            ],
            [
                .integer(4), utf8("dec"), .integer(1), .integer(1), .real(0.1), .real(0.5), .null, .null, .null, .null, .null, .null,
                utf8("1.50"), .integer(MixedTag.decimal),
            ],
        ])
        // Read back through the writer as an update reads them: in the codec's forms.
        try realm.write { _, writer in
            let item = ObjectRef(type: "Item", id: 1)
            let type = try realm.catalog.type("Item")
            let any = try writer.storedColumn(of: item, try realm.catalog.property("any", of: type))
            #expect(any.tag == MixedTag.string && any.value == .text(Self.tricky))
            #expect(try writer.mixedValue(tag: any.tag, value: any.value) == .string(Self.tricky))
            #expect(try writer.storedColumn(of: item, try realm.catalog.property("price", of: type)).value == .text("1.50"))
            #expect(try writer.storedColumn(of: item, try realm.catalog.property("code", of: type)).value == .text(Self.tricky))
            let ratio = try writer.storedColumn(of: item, try realm.catalog.property("ratio", of: type)).value
            #expect(ratio.isIdentical(to: .real(-0.0)))
            let inf = try writer.storedColumn(of: ObjectRef(type: "Item", id: 2), try realm.catalog.property("any", of: type))
            #expect(try writer.mixedValue(tag: inf.tag, value: inf.value) == .double(-.infinity))
            #expect(try writer.objectId(try realm.catalog.storedType("Item"), key: .text(Self.tricky)) == 1)
            #expect(try writer.objectId(try realm.catalog.storedType("Item"), key: .text("nul")) == nil)
        }
    }

    /// Writes objects with every kind of collection, link and nested mixed value.
    static func writeSample(_ realm: Fixture, holding: Bool) throws {
        let decimal = try Self.decimal("1.50")
        try realm.write(holding: holding) { transaction, _ in
            try Fixture.create(transaction, "Person", ["name": "Ann"])
            try Fixture.create(transaction, "Item", [
                "code": "a", "count": 1, "flag": true, "ratio": 1, "small": 1, "owner": 1,
                "tags": ["b", "a\u{0}", "b"], "seen": [3, 1, 2, 3], "scores": ["x": 1.5, "nul\u{0}key": .double(-0.0)],
                "extras": [1, 2.5, "three", nil, true, [1, ["deep"]], ["k": decimal],
                           .object(ObjectRef(type: "Person", id: 1))],
                "bag": ["list": ["x", 2], "n": 7],
                "things": [1, "1", 1, .data(Data([0]))],
                "friends": [1, ["name": "Bo"]],
                "spot": ["x": 5, "near": [["x": 6]]],
            ])
            try Fixture.create(transaction, "Person", ["name": "Cy", "pals": [1, 2, 1], "byName": ["ann": 1, "none": nil]])
            try Fixture.create(transaction, "Plain", ["label": "p", "spots": [["x": 7], ["x": 8, "near": [["x": 9]]]]])
        }
    }

    @Test(arguments: [false, true])
    func collectionsLinksAndNestedMixedValuesAreStoredExactly(holding: Bool) throws {
        guard PostgresTestServer.isReady() else { return }
        let realm = try Fixture(label: "collections")
        try Self.writeSample(realm, holding: holding)
        expectCells(try realm.rows(##"SELECT "#owner", "#pos", "#value" FROM "Item.tags" ORDER BY "#pos""##), [
            [.integer(1), .integer(0), utf8("b")], [.integer(1), .integer(1), utf8("a\u{0}")], [.integer(1), .integer(2), utf8("b")],
        ])
        // A set keeps its elements in the order first given.
        expectCells(try realm.rows(##"SELECT "#value" FROM "Item.seen" ORDER BY "#row""##), [[.integer(3)], [.integer(1)], [.integer(2)]])
        expectCells(try realm.rows(##"SELECT "#key", "#value" FROM "Item.scores" ORDER BY "#key""##), [
            [utf8("nul\u{0}key"), .real(-0.0)], [utf8("x"), .real(1.5)],
        ])
        let extras = try realm.rows(##"SELECT "#pos", "#type", "#value" FROM "Item.extras" ORDER BY "#pos""##)
        #expect(extras.count == 8)
        let personTag = MixedTag.linkBase + (try realm.catalog.typeId("Person"))
        expectCells(Array(extras.prefix(5)) + [extras[7]], [
            [.integer(0), .integer(MixedTag.int), utf8("1")], [.integer(1), .integer(MixedTag.double), utf8("2.5")],
            [.integer(2), .integer(MixedTag.string), utf8("three")], [.integer(3), .integer(MixedTag.null), .null],
            [.integer(4), .integer(MixedTag.bool), utf8("1")], [.integer(7), .integer(personTag), utf8("1")],
        ])
        // The nested list and map are containers of #mixed, their ids stored as decimal text.
        guard extras.count == 8, case .blob(let listBytes) = extras[5][2], let list = Int64(String(decoding: listBytes, as: UTF8.self)),
            case .blob(let mapBytes) = extras[6][2], let map = Int64(String(decoding: mapBytes, as: UTF8.self))
        else {
            Issue.record("the nested containers of Item.extras are not stored as ids: \(extras)")
            return
        }
        let entries = ##"SELECT "#pos", "#key", "#type", "#value" FROM "#mixed" WHERE "#container" = "##
        let outer = try realm.rows(entries + "\(list) ORDER BY \"#pos\"")
        #expect(outer.count == 2)
        guard outer.count == 2, case .blob(let innerBytes) = outer[1][3], let inner = Int64(String(decoding: innerBytes, as: UTF8.self)) else {
            return
        }
        expectCells(outer, [[.integer(0), .null, .integer(MixedTag.int), utf8("1")], [.integer(1), .null, .integer(MixedTag.list), utf8("\(inner)")]])
        expectCells(try realm.rows(entries + "\(inner)"), [[.integer(0), .null, .integer(MixedTag.string), utf8("deep")]])
        expectCells(try realm.rows(entries + "\(map)"), [[.null, utf8("k"), .integer(MixedTag.decimal), utf8("1.50")]])
        // Links by key and nested objects, embedded objects and their lists.
        expectCells(try realm.rows(##"SELECT "owner", "spot" FROM "Item""##), [[.integer(1), .integer(1)]])
        expectCells(try realm.rows(##"SELECT "#id", "id", "name" FROM "Person" ORDER BY "#id""##), [
            [.integer(1), .integer(1), utf8("Ann")], [.integer(2), .integer(2), utf8("Bo")], [.integer(3), .integer(3), utf8("Cy")],
        ])
        expectCells(try realm.rows(##"SELECT "#pos", "#value" FROM "Item.friends" ORDER BY "#pos""##), [
            [.integer(0), .integer(1)], [.integer(1), .integer(2)],
        ])
        expectCells(try realm.rows(##"SELECT "#owner", "#value" FROM "Person.pals" ORDER BY "#row""##), [
            [.integer(3), .integer(1)], [.integer(3), .integer(2)],
        ])
        expectCells(try realm.rows(##"SELECT "#key", "#value" FROM "Person.byName" ORDER BY "#key""##), [
            [utf8("ann"), .integer(1)], [utf8("none"), .null],
        ])
        expectCells(try realm.rows(##"SELECT "#id", "x" FROM "Spot" ORDER BY "#id""##), (1...5).map { [.integer($0), .integer([5, 6, 7, 8, 9][Int($0) - 1])] })
        expectCells(try realm.rows(##"SELECT "#owner", "#pos", "#value" FROM "Spot.near" ORDER BY "#owner""##), [
            [.integer(1), .integer(0), .integer(2)], [.integer(4), .integer(0), .integer(5)],
        ])
        expectCells(try realm.rows(##"SELECT "#value", "#type" FROM "Item.things" ORDER BY "#row""##), [
            [utf8("1"), .integer(MixedTag.int)], [utf8("1"), .integer(MixedTag.string)], [.blob(Data([0])), .integer(MixedTag.data)],
        ])
        // Read back as a write reads them.
        let decimal = try Self.decimal("1.50")
        try realm.write { _, writer in
            let item = ObjectRef(type: "Item", id: 1)
            let type = try realm.catalog.type("Item")
            #expect(try writer.collection(of: item, try realm.catalog.property("extras", of: type)) == [
                1, 2.5, "three", nil, true, [1, ["deep"]], ["k": decimal], .object(ObjectRef(type: "Person", id: 1)),
            ])
            #expect(try writer.collection(of: item, try realm.catalog.property("bag", of: type)) == ["list": ["x", 2], "n": 7])
            #expect(try writer.collection(of: item, try realm.catalog.property("seen", of: type)) == [3, 1, 2])
            let scores = try writer.collectionElements(of: item, try realm.catalog.property("scores", of: type), isMap: true)
            #expect(scores.map(\.key) == ["nul\u{0}key", "x"])
            #expect(try writer.linkCount(to: ObjectRef(type: "Person", id: 1), upTo: 100) == 5)
            #expect(try writer.linkCount(to: ObjectRef(type: "Person", id: 1), upTo: 2) == 2)
        }
        #expect(try realm.rows(##"SELECT "lastObjectId", "lastKey" FROM "#types" WHERE "name" = 'Person'"##) == [[.integer(3), .integer(3)]])
    }

    @Test func heldInsertsStoreWhatSingleInsertsStore() throws {
        guard PostgresTestServer.isReady() else { return }
        let single = try Fixture(label: "single")
        let held = try Fixture(label: "held")
        try Self.writeSample(single, holding: false)
        try Self.writeSample(held, holding: true)
        let singleRows = try single.dump()
        let heldRows = try held.dump()
        #expect(singleRows.keys.sorted() == heldRows.keys.sorted())
        for table in singleRows.keys.sorted() {
            #expect("\(singleRows[table] ?? [])" == "\(heldRows[table] ?? [])", "table \(table)")
        }
        #expect(singleRows["Item.extras"]?.count == 8)
    }

    @Test func heldInsertsGoInBatchesAndAreFoundByKeyBeforeTheyAre() throws {
        guard PostgresTestServer.isReady() else { return }
        let realm = try Fixture(label: "batches")
        let count = PostgresHeldInserts.rowsPerBatch * 2 + 7
        try realm.write(holding: true) { transaction, writer in
            for number in 1...count {
                try Fixture.create(transaction, "Person", ["name": .string("p\(number)"), "pals": [.int(Int64(max(1, number - 1)))]])
            }
            // A held object is found by its key, and a link to it by key resolves.
            #expect(try writer.objectId(try realm.catalog.storedType("Person"), key: .integer(Int64(count))) == Int64(count))
            try Fixture.create(transaction, "Item", ["code": .string(String(repeating: "x", count: 70_000)), "count": 1, "flag": true,
                                                     "ratio": 0, "small": 0, "owner": .int(Int64(count))])
        }
        #expect(try realm.rows(##"SELECT count(*), max("id") FROM "Person""##) == [[.integer(Int64(count)), .integer(Int64(count))]])
        #expect(try realm.rows(##"SELECT count(*) FROM "Person.pals""##) == [[.integer(Int64(count))]])
        #expect(try realm.rows(##"SELECT "owner", length("code") FROM "Item""##) == [[.integer(Int64(count)), .integer(70_000)]])
    }
}
