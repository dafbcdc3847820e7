import Foundation
import GRDB
import Kura
import KuraTestSupport
import Testing

/// Identifier counters at Int64.max (object ids, autoIncrement keys, nested mixed containers):
/// `kura check` reports them, and every write that needs one more fails with a clear error.
@Suite struct CounterLimitTests: SamplesRealmSuite {
    let samples: SamplesRealmFolder
    static let max = Int64.max

    init() throws { samples = try SamplesRealmFolder() }

    /// Sets counters in the realm file as a hostile or worn-out realm would have them.
    func setCounters(objectIds: [String: Int64] = [:], keys: [String: Int64] = [:], containers: Int64? = nil) throws {
        try DatabaseQueue(path: realmPath).write { db in
            for (type, value) in objectIds {
                try db.execute(sql: ##"UPDATE "#types" SET "lastObjectId" = ? WHERE "name" = ?"##, arguments: [value, type])
            }
            for (type, value) in keys {
                try db.execute(sql: ##"UPDATE "#types" SET "lastKey" = ? WHERE "name" = ?"##, arguments: [value, type])
            }
            if let containers {
                try db.execute(sql: ##"UPDATE "#meta" SET "value" = ? WHERE "key" = 'lastMixedContainer'"##, arguments: [containers])
            }
        }
    }

    @Test func checkReportsEveryExhaustedCounter() throws {
        try setCounters(objectIds: ["Dog": Self.max], keys: ["Person": Self.max], containers: Self.max)
        let result = try Fixtures.run(kura, ["check", realmPath])
        #expect(result.status == 65)
        #expect(result.stdout == """
            #meta: the container counter (lastMixedContainer) has reached Int64.max: no more nested mixed lists or maps can be created
            Dog: the object id counter (#types.lastObjectId) has reached Int64.max: no more Dog objects can be created
            Person.id: the autoIncrement counter (#types.lastKey) has reached Int64.max: no more Person keys can be created
            3 problems found

            """)
        let json = try Fixtures.run(kura, ["check", realmPath, "--format", "json"])
        #expect(json.stdout.contains(#""kind" : "counterExhausted""#))
        try setCounters(objectIds: ["Dog": Self.max - 1], keys: ["Person": Self.max - 1], containers: Self.max - 1)
        #expect(try Fixtures.run(kura, ["check", realmPath]).status == 0)
    }

    @Test func anImportNeedingAnExhaustedCounterStopsWithItsNameNeverATrap() throws {
        try setCounters(objectIds: ["Dog": Self.max], keys: ["Person": Self.max], containers: Self.max)
        let cases: [(String, String)] = [
            (#"{"name": "A"}"#, "the autoIncrement counter of Person (#types.lastKey) has reached Int64.max: no more Person keys can be created"),
            (#"{"id": 1, "name": "A", "dogs": [{"name": "Rex", "age": 3}]}"#,
             "the object id counter of Dog (#types.lastObjectId) has reached Int64.max: no more Dog objects can be created"),
            (#"{"id": 1, "name": "A", "bestFriend": 2}"#, "the object id counter of Person (#types.lastObjectId) has reached Int64.max: no more Person objects can be created"),
        ]
        try setCounters(objectIds: ["Person": Self.max - 1])
        for (index, (document, message)) in cases.enumerated() {
            let input = try file("p\(index).jsonl", document + "\n")
            let result = try Fixtures.run(kura, ["import", realmPath, input, "--type", "Person"])
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr == "kura: \(input):1:1: error: \(message); nothing was committed\n")
        }
        #expect(try Realm(path: realmPath).count("Person") == 0)
    }

    @Test func anExhaustedContainerCounterStopsASkipImportSayingWhatWasCommitted() throws {
        try setCounters(containers: Self.max)
        let input = try file("dogs.jsonl", """
            {"name": "Rex", "age": 3, "companion": 1}
            {"name": "Max", "age": 2, "companion": [1, 2]}
            {"name": "Bo", "age": 1}

            """)
        let result = try Fixtures.run(kura, ["import", realmPath, input, "--type", "Dog", "--on-error", "skip", "--batch-size", "1"])
        #expect(result.status == 65)
        #expect(result.stderr == """
            kura: \(input):2:1: error: the container counter (#meta.lastMixedContainer) has reached Int64.max: \
            no more nested mixed lists or maps can be created; 1 document in 1 batch was committed before the failure

            """)
        #expect(try Realm(path: realmPath).count("Dog") == 1)
        let rejects = try? Data(contentsOf: folder.appendingPathComponent("dogs.rejects.jsonl"))
        #expect((rejects ?? Data()).isEmpty)
    }

    @Test func theLibraryThrowsACounterError() throws {
        try setCounters(objectIds: ["DogToy": Self.max])
        let realm = try Realm(path: realmPath)
        #expect(throws: KuraError.store(.counterExhausted,
            "the object id counter of DogToy (#types.lastObjectId) has reached Int64.max: no more DogToy objects can be created")) {
            try realm.write { try realm.create("DogToy", value: ["name": "Rope"]) }
        }
        #expect(try realm.count("DogToy") == 0)
    }

    @Test func aCopyWhoseShiftedIdsWouldPassTheLimitIsRefused() throws {
        let source = folder.appendingPathComponent("source.realm").path
        let filled = try Realm(path: source, schema: try Fixtures.samplesSchema())
        try filled.write { try filled.create("Dog", value: ["name": "Rex", "age": 3, "companion": [1]]) }
        try setCounters(objectIds: ["Dog": Self.max])
        let result = try Fixtures.run(kura, ["copy", source, realmPath])
        #expect(result.status == 65)
        #expect(result.stderr == """
            kura: error: the object id counter of Dog (#types.lastObjectId) would pass Int64.max: \
            the destination's \(Self.max) and the source's 1 do not fit together

            """)
        try setCounters(objectIds: ["Dog": 0], containers: Self.max)
        #expect(try Fixtures.run(kura, ["copy", source, realmPath]).stderr == """
            kura: error: the container counter (#meta.lastMixedContainer) would pass Int64.max: \
            the destination's \(Self.max) and the source's 1 do not fit together

            """)
        #expect(try Realm(path: realmPath).count("Dog") == 0)
    }

    @Test func aMigrationGeneratingKeysPastTheLimitIsRefused() throws {
        let (path, realm) = try MigrationFixtures.realm(MigrationFixtures.diaryV1)
        try MigrationFixtures.fillDiary(realm, count: 5)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: ##"UPDATE "#types" SET "lastKey" = ? WHERE "name" = 'Diary'"##, arguments: [Self.max - 3])
        }
        let message = "the autoIncrement counter of Diary (#types.lastKey) would pass Int64.max: keys for 5 objects do not fit after \(Self.max - 3)"
        #expect { try MigrationFixtures.migrate(path, to: """
            schemaVersion: 2
            types:
              Diary:
                primaryKey: number
                properties:
                  number: { type: int, autoIncrement: true }
                  text: string
                  date: date
            """) } throws: { error in "\(error)".contains(message) }
        #expect(try Realm(path: path).count("Diary") == 5)
    }
}
