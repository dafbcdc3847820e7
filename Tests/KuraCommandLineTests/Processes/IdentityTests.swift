import Foundation
import Kura
import KuraTestSupport
import Testing

/// Identifiers are never reused, across deletions, reopenings and concurrent processes.
@Suite struct IdentityTests {
    @Test func aDeletedKeyIsNeverHandedOutAgain() throws {
        let path = try Fixtures.realmPath()
        let realm = try Realm(path: path, schema: try Fixtures.samplesSchema())
        let alice = try realm.write { try realm.create("Person", value: ["name": "Alice"]) }
        #expect(try alice["id"] == 1)
        try realm.write { try realm.delete(alice) }
        let bob = try realm.write { try realm.create("Person", value: ["name": "Bob"]) }
        #expect(try bob["id"] == 2)
        #expect(bob.ref.id > alice.ref.id)

        try realm.write { try realm.delete(bob) }
        let reopened = try Realm(path: path)
        let carol = try reopened.write { try reopened.create("Person", value: ["name": "Carol"]) }
        #expect(try carol["id"] == 3)
        #expect(carol.ref.id == 3)
    }

    @Test func explicitKeysRaiseTheCounterAndDeletionsNeverLowerIt() throws {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Fixtures.samplesSchema())
        let high = try realm.write { try realm.create("Person", value: ["id": 41, "name": "Explicit"]) }
        let next = try realm.write { try realm.create("Person", value: ["name": "Next"]) }
        #expect(try next["id"] == 42)
        try realm.write {
            try realm.delete(high)
            try realm.delete(next)
        }
        let after = try realm.write { try realm.create("Person", value: ["name": "After"]) }
        #expect(try after["id"] == 43)
    }

    @Test func aRolledBackTransactionLeavesNoObjectsButNeverReusesCommittedIds() throws {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Fixtures.samplesSchema())
        try realm.write { _ = try realm.create("Person", value: ["name": "Kept"]) }
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try realm.write {
                _ = try realm.create("Person", value: ["name": "Dropped"])
                throw Abort()
            }
        }
        #expect(try realm.count("Person") == 1)
        let next = try realm.write { try realm.create("Person", value: ["name": "Next"]) }
        #expect(try next["id"] == 2)
    }

    @Test func anotherProcessSeesTheSameObjects() throws {
        let path = try Fixtures.realmPath()
        let realm = try Realm(path: path, schema: try Fixtures.samplesSchema())
        try realm.write {
            let alice = try realm.create("Person", value: ["name": "Alice", "dogs": [["name": "Rex", "age": 3, "citiesVisited": ["Oslo"]]]])
            try realm.create("Person", value: ["name": "Bob", "bestFriend": try alice["id"], "address": ["city": "Kyoto"]])
        }
        let probe = try Fixtures.run(Fixtures.executable("kura-probe"), ["dump", path])
        #expect(probe.status == 0, "\(probe.stderr)")
        let lines = probe.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.contains { $0.hasPrefix("Dog#1 ") && $0.contains("age=3") && $0.contains("citiesVisited=[\"Oslo\"]") })
        #expect(lines.contains { $0.hasPrefix("Person#2 ") && $0.contains("bestFriend=Person#1") && $0.contains("address=Address#1") })

        try Fixtures.run(Fixtures.executable("kura-probe"), ["create", path, "Person", "2", "probe"])
        let names = try realm.objects("Person").map { try $0["name"] }
        #expect(names == ["Alice", "Bob", "probe-0", "probe-1"])
    }

    @Test func twoProcessesCreatingAtOnceGetDistinctIds() throws {
        let path = try Fixtures.realmPath()
        _ = try Realm(path: path, schema: try Fixtures.samplesSchema())
        let probe = Fixtures.executable("kura-probe")
        let processes = try ["a", "b"].map { prefix in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: probe)
            process.arguments = ["create", path, "Person", "500", prefix]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            return (process, errors)
        }
        for (process, errors) in processes {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(message)")
        }
        let realm = try Realm(path: path)
        let people = Array(try realm.objects("Person"))
        let keys = Set(try people.map { try $0["id"] })
        #expect(people.count == 1000)
        #expect(keys.count == 1000)
        #expect(keys == Set((1...1000).map { Value.int(Int64($0)) }))
        #expect(Set(people.map(\.ref.id)).count == 1000)
    }
}
