import Foundation
import GRDB
import Kura
import KuraTestSupport
import Testing

/// The bulk write paths: collections inserted several elements a statement, sets deduplicated by
/// scan and by hash, and texts and blobs bound from one buffer. Each is read back from a file.
@Suite struct BulkWriteTests {
    static let schema = """
        types:
          Tag:
            properties:
              label: string
          Bag:
            primaryKey: name
            properties:
              name: string
              note: string?
              numbers: list<int>
              words: set<string>
              scores: map<int>
              blobs: list<data>
              tags: list<Tag>
              things: set<mixed>
        """

    /// Writes `value` as a Bag into a new file and reads it back through a second realm.
    func roundTrip(_ value: Value) throws -> [String: Value] {
        guard case .map(let fields) = value, let name = fields["name"] else { throw BagError.noName }
        let path = try Fixtures.realmPath()
        do {
            let realm = try Realm(path: path, schema: try Schema(yaml: Self.schema))
            try realm.write { try realm.create("Bag", value: value) }
        }
        let realm = try Realm(path: path)
        let bag = try #require(try realm.object(ofType: "Bag", forPrimaryKey: name))
        return try bag.values()
    }

    @Test(arguments: [0, 1, 7, 8, 9, 16, 17, 40])
    func listsKeepEveryElementInOrderAcrossStatementBoundaries(count: Int) throws {
        let numbers = (0..<count).map { Value.int(Int64($0 * 3 - 7)) }
        let values = try roundTrip(["name": "bag", "numbers": .list(numbers)])
        #expect(values["numbers"] == .list(numbers))
    }

    @Test func setsDropRepeatsBelowAndAboveTheScanLimit() throws {
        // Repeats among the first few elements (found by the scan) and far apart (found by the hash).
        let words = ["a", "b", "a", "c", "b", "d", "e", "f", "g", "h", "i", "a", "j", "i", "k", "c", "l", "k"]
        let values = try roundTrip(["name": "bag", "words": .list(words.map { .string($0) })])
        guard case .list(let stored)? = values["words"] else {
            Issue.record("words is not a list of values: \(String(describing: values["words"]))")
            return
        }
        #expect(stored.count == 12)
        #expect(Set(stored) == Set(words.map { Value.string($0) }))
    }

    @Test(arguments: [(700, 1), (5, 30_000)])
    func setsDropRepeatsOfElementsAlreadyInsertedInAnEarlierBatch(distinct: Int, length: Int) throws {
        // A new object's set goes in batches of a few hundred rows or a few tens of kilobytes: a
        // repeat of an element of an earlier batch, no longer staged, is still left out, whether
        // many elements filled the batch or a few long ones.
        let padding = String(repeating: "x", count: length)
        let words = (0..<(distinct * 3)).map { Value.string("word \($0 % distinct) \(padding)") }
        let values = try roundTrip(["name": "bag", "words": .list(words)])
        guard case .list(let stored)? = values["words"] else {
            Issue.record("words is not a list of values: \(String(describing: values["words"]))")
            return
        }
        #expect(stored.count == distinct)
        #expect(Set(stored) == Set(words))
    }

    @Test func mixedSetsDropRepeatsByValue() throws {
        let values = try roundTrip(["name": "bag", "things": [1, "1", 1, .double(2.5), "1", .null, .null]])
        guard case .list(let stored)? = values["things"] else {
            Issue.record("things is not a list of values")
            return
        }
        #expect(stored.count == 4)
        #expect(Set(stored) == [1, "1", .double(2.5), .null])
    }

    @Test func mapsOfManyKeysAreWholeAndSorted() throws {
        var scores: [String: Value] = [:]
        for index in 0..<19 { scores["key\(index)"] = .int(Int64(index)) }
        let values = try roundTrip(["name": "bag", "scores": .map(scores)])
        #expect(values["scores"] == .map(scores))
    }

    @Test func textsAndBlobsOfEverySizeSurviveTheSharedBuffer() throws {
        // Several texts in one row, longer together than the buffer's first size, non-ASCII
        // included; empty values stay empty, not null.
        let long = String(repeating: "ж\u{1F600}x", count: 400)
        let name = "name " + long
        let blobs: [Value] = [.data(Data()), .data(Data([0, 255, 0])), .data(Data(repeating: 7, count: 5000))]
        let values = try roundTrip(["name": .string(name), "blobs": .list(blobs), "tags": [["label": ""], ["label": .string(long)]]])
        #expect(values["name"] == .string(name))
        #expect(values["blobs"] == .list(blobs))
        let path = try Fixtures.realmPath()
        let realm = try Realm(path: path, schema: try Schema(yaml: Self.schema))
        let bag = try realm.write {
            try realm.create("Bag", value: ["name": "second", "tags": [["label": ""], ["label": .string(long)]]])
        }
        #expect(try bag.objects("tags").map { try $0["label"] } == ["", .string(long)])
    }

    @Test func keysAndUpdatesWithANulAreBoundWhole() throws {
        // GRDB binds a string up to its first NUL; the lookup by key and the update of a column
        // bind with the length. The stored bytes are read with SQL, NUL and all.
        let path = try Fixtures.realmPath()
        let name = "a\u{0}b"
        let note = "before\u{0}after"
        do {
            let realm = try Realm(path: path, schema: try Schema(yaml: Self.schema))
            try realm.write {
                try realm.create("Bag", value: ["name": "a"])
                try realm.create("Bag", value: ["name": .string(name)])
                try realm.create("Bag", value: ["name": .string(name), "note": .string(note)], update: .modified)
            }
            #expect(try realm.object(ofType: "Bag", forPrimaryKey: .string(name)) != nil)
            #expect(try realm.object(ofType: "Bag", forPrimaryKey: "a\u{0}") == nil)
        }
        let rows = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT hex(name), hex(note) FROM Bag ORDER BY \"#id\"").map { [$0[0] as String?, $0[1] as String?] }
        }
        #expect(rows == [["61", ""], ["610062", "6265666F7265006166746572"]])  // hex(NULL) is empty
    }

    @Test func aBadElementPastTheFirstStatementLeavesNothingBehind() throws {
        let path = try Fixtures.realmPath()
        let realm = try Realm(path: path, schema: try Schema(yaml: Self.schema))
        var numbers = (0..<12).map { Value.int(Int64($0)) }
        numbers[10] = "ten"
        try realm.write {
            #expect(throws: KuraError.store(.typeMismatch, "Bag.numbers[10]: expected int, found string \"ten\"")) {
                try realm.create("Bag", value: ["name": "bad", "numbers": .list(numbers)])
            }
            try realm.create("Bag", value: ["name": "good", "numbers": [1, 2]])
        }
        #expect(try realm.objects("Bag").map { try $0["name"] } == ["good"])
        #expect(try RealmChecker(path: path).check().messages == [])
    }

    enum BagError: Error { case noName }

    @Test func sqliteSetUpRefusesOnceSQLiteIsInUse() throws {
        _ = try Realm(path: ":memory:", schema: try Schema(yaml: Self.schema))
        #expect(SQLiteLibrary.prepareForBulkWriting() == false)
    }
}
