import Foundation
import Kura
import KuraTestSupport
import Testing

/// Realm-wide behaviour: asymmetric types, in-memory realms, nesting bounds, reopening.
@Suite struct RealmBehaviourTests {
    static let schema = """
        types:
          Log:
            asymmetric: true
            properties:
              message: string
              where: Spot?
          Spot:
            embedded: true
            properties:
              file: string
          Node:
            properties:
              label: string
              next: Node?
              payload: mixed
        """

    @Test(arguments: RealmEngine.tested) func asymmetricObjectsCanBeInsertedButNotQueried(on engine: RealmEngine) throws {
        let realm = try engine.makeRealm(try Schema(yaml: Self.schema))
        try realm.write { _ = try realm.create("Log", value: ["message": "started", "where": ["file": "main.swift"]]) }
        #expect(try realm.count("Log") == 1)
        #expect(throws: KuraError.store(.asymmetricMisuse, "Log is asymmetric: its objects can be inserted and exported, not queried")) {
            try realm.objects("Log")
        }
        #expect(throws: KuraError.store(.asymmetricMisuse, "Log is asymmetric: its objects can only be inserted")) {
            try realm.write { _ = try realm.create("Log", value: ["message": "again"], update: .update) }
        }
    }

    @Test(arguments: RealmEngine.tested) func inMemoryRealmsAreIndependent(on engine: RealmEngine) throws {
        let schema = try Schema(yaml: Self.schema)
        let first = try engine.makeRealm(schema)
        let second = try engine.makeRealm(schema)
        try first.write { _ = try first.create("Node", value: ["label": "a"]) }
        #expect(try first.count("Node") == 1)
        #expect(try second.count("Node") == 0)
    }

    @Test(arguments: RealmEngine.tested) func deeplyNestedMixedValuesAreRefusedNotACrash(on engine: RealmEngine) throws {
        let realm = try engine.makeRealm(try Schema(yaml: Self.schema))
        var deep: Value = 1
        for _ in 0..<1000 { deep = [deep] }
        expectKuraError(.store) {
            try realm.write { _ = try realm.create("Node", value: ["label": "deep", "payload": deep]) }
        }
        do {
            try realm.write { _ = try realm.create("Node", value: ["label": "deep", "payload": deep]) }
        } catch let error as KuraError {
            #expect(error.code == .store(.nestingTooDeep))
            #expect(error.message == "Node.payload" + String(repeating: "[0]", count: 100) + ": mixed values nest deeper than 100 levels")
        }
        #expect(try realm.count("Node") == 0)
    }

    @Test(arguments: RealmEngine.tested) func deeplyNestedObjectsAreRefusedNotACrash(on engine: RealmEngine) throws {
        let realm = try engine.makeRealm(try Schema(yaml: Self.schema))
        var chain: Value = ["label": "end"]
        for index in 0..<300 { chain = ["label": .string("n\(index)"), "next": chain] }
        expectKuraError(.store) { try realm.write { _ = try realm.create("Node", value: chain) } }
        #expect(try realm.count("Node") == 0)
        var shorter: Value = ["label": "end"]
        for index in 0..<100 { shorter = ["label": .string("n\(index)"), "next": shorter] }
        try realm.write { _ = try realm.create("Node", value: shorter) }
        #expect(try realm.count("Node") == 101)
    }

    @Test func openingAFileThatIsNotARealmNeedsASchema() throws {
        let path = try Fixtures.realmPath()
        // Without a schema nothing is created: no empty file stays behind.
        #expect(throws: KuraError.store(.openFailed, "no realm at '\(path)'")) { try Realm(path: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func theRealmFileUsesWALAndQuotesEveryName() throws {
        let path = try Fixtures.realmPath()
        let schema = try Schema(yaml: "types:\n  select:\n    properties:\n      from: string\n      where: int?\n")
        let realm = try Realm(path: path, schema: schema)
        try realm.write { _ = try realm.create("select", value: ["from": "x'; DROP TABLE \"select\"; --", "where": 1]) }
        #expect(try realm.objects("select").first?["from"] == "x'; DROP TABLE \"select\"; --")
        // SQLite's header marks WAL mode with file format versions 2 at bytes 18 and 19.
        let header = try #require(FileManager.default.contents(atPath: path))
        #expect(Array(header.prefix(16)) == Array("SQLite format 3\u{0}".utf8))
        #expect(header[18] == 2 && header[19] == 2)
        // Bytes 16 and 17 hold the page size, big-endian: new realms use 16 KiB pages.
        #expect(Int(header[16]) << 8 | Int(header[17]) == 16384)
    }
}
