import Foundation
import GRDB
import Kura
import KuraTestSupport
import Testing

/// An import holds its inserts and writes them a batch at a time (`kura_rows`). Rows not yet
/// written must still be found by primary key, updated, linked to, and written before commit;
/// a failed import must leave none of them. Batches hold 256 rows, so inputs here cross them.
struct HeldInsertCases {
    let path: String
    let realm: Realm

    init(_ engine: RealmEngine) throws {
        path = try engine.freshRealm()
        realm = try Realm(path: path, schema: try Fixtures.samplesSchema())
    }

    func importLines(_ lines: [String], options: ImportOptions = ImportOptions(type: "Person")) throws -> ImportSummary {
        let text = lines.joined(separator: "\n")
        return try DocumentImporter(realm: realm, options: options).run(JSONReader(bytes: Array(text.utf8), file: "in.jsonl", layout: .lines))
    }

    func bestFriendKey(of key: Int64) throws -> Int64? {
        let person = try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(key)))
        guard let friend = try person.link("bestFriend") else { return nil }
        guard case .int(let friendKey) = try friend.value(forKey: "id") else { return nil }
        return friendKey
    }

    func linksByKeyFindHeldObjectsBehindAndAheadAcrossBatches() throws {
        // Person n names n − 1 (held, or written in an earlier batch) as best friend; every
        // hundredth names n + 1, a document still to come.
        let count = 700
        let lines = (1...count).map { index in
            let friend = index % 100 == 0 ? index + 1 : index - 1
            let link = friend >= 1 && friend <= count ? "\(friend)" : "null"
            return #"{"id": \#(index), "name": "P\#(index)", "bestFriend": \#(link), "dogs": [{"name": "D\#(index)", "age": 1}]}"#
        }
        let summary = try importLines(lines)
        #expect(summary.counts["Person"]?.inserted == count)
        #expect(try realm.count("Person") == count)
        #expect(try realm.count("Dog") == count)
        for index in [2, 255, 256, 257, 301, 513, 699] {
            #expect(try bestFriendKey(of: Int64(index)) == Int64(index - 1), "person \(index)")
        }
        for index in [100, 200, 300, 600] {
            #expect(try bestFriendKey(of: Int64(index)) == Int64(index + 1))
        }
        #expect(try bestFriendKey(of: 1) == nil)
        #expect(try bestFriendKey(of: 700) == nil)
        #expect(try Fixtures.problems(realm) == [])
    }

    func aKeyRepeatedWhileItsObjectIsHeldIsADuplicateAndNothingIsWritten() throws {
        var lines = (1...10).map { #"{"id": \#($0), "name": "P\#($0)"}"# }
        lines.append(#"{"id": 4, "name": "Again"}"#)
        #expect {
            _ = try importLines(lines)
        } throws: { error in
            "\(error)" == "in.jsonl:11:1: error: $[10]: an object of type Person with primary key 4 already exists"
        }
        #expect(try realm.count("Person") == 0)
        #expect(try realm.count("Dog") == 0)
    }

    func integerKeysAboveAndBelowEveryStoredKeyAreFoundOrInserted() throws {
        // A key above every stored one is inserted without a lookup; the others are looked up.
        _ = try importLines((1...300).map { #"{"id": \#($0), "name": "P\#($0)"}"# })
        var lines = (251...600).reversed().map { #"{"id": \#($0), "name": "New \#($0)"}"# }
        lines += [1000, 999, 1000].enumerated().map { #"{"id": \#($1), "name": "Late \#($0)"}"# }
        let summary = try importLines(lines, options: ImportOptions(type: "Person", mode: .update))
        #expect(summary.counts["Person"]?.inserted == 302)
        #expect(summary.counts["Person"]?.updated == 51)
        #expect(try realm.count("Person") == 602)
        let updated = try #require(try realm.object(ofType: "Person", forPrimaryKey: 251))
        #expect(try updated.value(forKey: "name") == "New 251")
        #expect {
            _ = try importLines([#"{"id": 1000, "name": "Again"}"#])
        } throws: { error in
            "\(error)" == "in.jsonl:1:1: error: $[0]: an object of type Person with primary key 1000 already exists"
        }
        #expect(try realm.count("Person") == 602)
        #expect(try Fixtures.problems(realm) == [])
    }

    func anUpdateImportChangesObjectsItHoldsItself() throws {
        let lines = [
            #"{"id": 1, "name": "First", "dogs": [{"name": "Rex", "age": 2}]}"#,
            #"{"id": 2, "name": "Other"}"#,
            #"{"id": 1, "name": "Second", "dogs": [{"name": "Fido", "age": 3}, {"name": "Bo", "age": 4}]}"#,
        ]
        let summary = try importLines(lines, options: ImportOptions(type: "Person", mode: .update))
        #expect(summary.counts["Person"]?.inserted == 2)
        #expect(summary.counts["Person"]?.updated == 1)
        let person = try #require(try realm.object(ofType: "Person", forPrimaryKey: 1))
        #expect(try person.value(forKey: "name") == "Second")
        #expect(try person.objects("dogs").map { try $0.value(forKey: "name") } == ["Fido", "Bo"])
        #expect(try realm.count("Person") == 2)
        #expect(try Fixtures.problems(realm) == [])
    }

    func longTextsNulsAndManyElementsArriveWhole() throws {
        // A text longer than a batch's byte buffer, between short ones, and a NUL inside a text.
        let long = String(repeating: "ж\u{1F600}abc", count: 20_000)
        let cities = (0..<600).map { "\"City \($0)\"" }.joined(separator: ", ")
        let lines = [
            #"{"id": 1, "name": "a\u0000b", "dogs": [{"name": "Short", "age": 1, "citiesVisited": [\#(cities)]}]}"#,
            #"{"id": 2, "name": "\#(long)"}"#,
            #"{"id": 3, "name": "after", "dogs": [{"name": "\#(long)", "age": 2, "favoriteParksByCity": {"k\u0000": "v\u0000w"}}]}"#,
        ]
        _ = try importLines(lines)
        let first = try #require(try realm.object(ofType: "Person", forPrimaryKey: 1))
        #expect(try first.value(forKey: "name") == "a\u{0}b")
        let dog = try #require(try first.objects("dogs").first)
        #expect(try dog.value(forKey: "citiesVisited") == .list((0..<600).map { .string("City \($0)") }))
        let third = try #require(try realm.object(ofType: "Person", forPrimaryKey: 3))
        let parksOfThird = try third.objects("dogs").first?.value(forKey: "favoriteParksByCity")
        #expect(parksOfThird == .map(["k\u{0}": "v\u{0}w"]))
        let second = try #require(try realm.object(ofType: "Person", forPrimaryKey: 2))
        #expect(try second.value(forKey: "name") == .string(long))
        // Read with SQL too: the stored bytes, not a reading of them that could stop at a NUL.
        let queue = try DatabaseQueue(path: path)
        let stored = try queue.read { db in
            try Data.fetchOne(db, sql: #"SELECT CAST("name" AS BLOB) FROM "Person" WHERE "id" = 1"#)
        }
        #expect(stored == Data("a\u{0}b".utf8))
        let parks = try queue.read { db in
            try Row.fetchOne(db, sql: ##"SELECT length(CAST("#key" AS BLOB)), length(CAST("#value" AS BLOB)) FROM "Dog.favoriteParksByCity""##)
        }
        #expect(parks?[0] == 2)
        #expect(parks?[1] == 3)
        let longDog = try queue.read { db in
            try Int.fetchOne(db, sql: #"SELECT length(CAST("name" AS BLOB)) FROM "Dog" WHERE "age" = 2"#)
        }
        #expect(longDog == long.utf8.count)
    }

    func aTableWiderThanTheBatchFunctionStillTakesEveryColumn() throws {
        let names = (0..<140).map { "p\($0)" }
        let properties = names.map { "      \($0): int" }.joined(separator: "\n")
        let schema = try Schema(yaml: "types:\n  Wide:\n    properties:\n\(properties)\n")
        let widePath = try Fixtures.realmPath("wide.realm")
        let wide = try Realm(path: widePath, schema: schema)
        let lines = (0..<300).map { row in
            "{" + names.enumerated().map { "\"\($1)\": \(row * 1000 + $0)" }.joined(separator: ", ") + "}"
        }
        _ = try DocumentImporter(realm: wide, options: ImportOptions(type: "Wide"))
            .run(JSONReader(bytes: Array(lines.joined(separator: "\n").utf8), file: "wide.jsonl", layout: .lines))
        #expect(try wide.count("Wide") == 300)
        let last = try wide.objects("Wide").filter { try $0.value(forKey: "p0") == .int(299_000) }
        #expect(try last.first?.value(forKey: "p139") == .int(299_139))
    }
}

/// The cases of `HeldInsertCases`, each run on every engine that does not need an SQLite file.
@Suite struct HeldInsertTests {
    @Test(arguments: RealmEngine.tested) func linksByKeyFindHeldObjectsBehindAndAheadAcrossBatches(on engine: RealmEngine) throws {
        try HeldInsertCases(engine).linksByKeyFindHeldObjectsBehindAndAheadAcrossBatches()
    }
    @Test(arguments: RealmEngine.tested) func aKeyRepeatedWhileItsObjectIsHeldIsADuplicateAndNothingIsWritten(on engine: RealmEngine) throws {
        try HeldInsertCases(engine).aKeyRepeatedWhileItsObjectIsHeldIsADuplicateAndNothingIsWritten()
    }
    @Test(arguments: RealmEngine.tested) func integerKeysAboveAndBelowEveryStoredKeyAreFoundOrInserted(on engine: RealmEngine) throws {
        try HeldInsertCases(engine).integerKeysAboveAndBelowEveryStoredKeyAreFoundOrInserted()
    }
    @Test(arguments: RealmEngine.tested) func anUpdateImportChangesObjectsItHoldsItself(on engine: RealmEngine) throws {
        try HeldInsertCases(engine).anUpdateImportChangesObjectsItHoldsItself()
    }
    @Test func longTextsNulsAndManyElementsArriveWhole() throws {
        try HeldInsertCases(.sqlite).longTextsNulsAndManyElementsArriveWhole()
    }
    @Test func aTableWiderThanTheBatchFunctionStillTakesEveryColumn() throws {
        try HeldInsertCases(.sqlite).aTableWiderThanTheBatchFunctionStillTakesEveryColumn()
    }
}
