import Foundation
import GRDB
import Kura
import KuraTestSupport
import Synchronization
import Testing

/// Several threads, each with its own `Realm` on one file, opening and writing at the same time.
@Suite struct ConcurrentThreadsTests {
    static let threads = 4

    /// What the threads report back: errors as text, and whatever else a test collects.
    final class Collected: Sendable {
        let errors = Mutex<[String]>([])
        let outcomes = Mutex<[OpenOutcome]>([])
    }

    /// Runs `body(index)` on `threads` threads at once and waits for all of them.
    private func onThreads(_ body: @escaping @Sendable (Int) throws -> Void) -> [String] {
        let collected = Collected()
        let group = DispatchGroup()
        for index in 0..<Self.threads {
            DispatchQueue.global().async(group: group) {
                do {
                    try body(index)
                } catch {
                    collected.errors.withLock { $0.append("thread \(index): \(error)") }
                }
            }
        }
        group.wait()
        return collected.errors.withLock { $0 }
    }

    @Test func threadsOpeningANewFileTogetherCreateItOnce() throws {
        let folder = try Fixtures.temporaryDirectory()
        let schema = try Fixtures.samplesSchema()
        // Each round races the threads to create a new file; a race lost shows in some rounds only.
        for round in 0..<10 {
            let path = folder.appendingPathComponent("new\(round).realm").path
            let collected = Collected()
            let errors = onThreads { _ in
                let realm = try Realm(path: path, schema: schema)
                collected.outcomes.withLock { $0.append(realm.openOutcome) }
            }
            #expect(errors == [], "round \(round)")
            let outcomes = collected.outcomes.withLock { $0 }
            #expect(outcomes.filter { $0 == .created }.count == 1, "round \(round)")
            #expect(outcomes.filter { $0 == .opened }.count == Self.threads - 1, "round \(round)")
            #expect(try RealmChecker(path: path).check().messages == [], "round \(round)")
        }
    }

    @Test func aNewRealmOpensWhenItsSwitchToWALMeetsAnotherConnectionsCommit() throws {
        let path = try Fixtures.realmPath()
        let schema = try Fixtures.samplesSchema()
        // A plain SQLite connection (rollback journal) writes the file, not yet a realm, and commits
        // while the realm's open waits to switch it to WAL. Each waits for the other's lock, so
        // SQLite fails one of them at once with SQLITE_BUSY, whatever the busy timeout (as when
        // several processes create one realm): the open must try again rather than fail.
        let other = try DatabaseQueue(path: path)
        let collected = Collected()
        let group = DispatchGroup()
        try other.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "PRAGMA user_version = 7")
            DispatchQueue.global().async(group: group) {
                do {
                    let realm = try Realm(path: path, schema: schema)
                    collected.outcomes.withLock { $0.append(realm.openOutcome) }
                } catch {
                    collected.errors.withLock { $0.append("\(error)") }
                }
            }
            Thread.sleep(forTimeInterval: 0.2)
            try db.execute(sql: "COMMIT")
        }
        group.wait()
        #expect(collected.errors.withLock { $0 } == [])
        #expect(collected.outcomes.withLock { $0 } == [.created])
        #expect(try RealmChecker(path: path).check().messages == [])
    }

    @Test(arguments: RealmEngine.tested) func aWriterWaitsPastItsTimeoutWhileAnotherKeepsCommitting(on engine: RealmEngine) throws {
        let path = try engine.freshRealm()
        _ = try Realm(path: path, schema: try Fixtures.samplesSchema())
        let collected = Collected()
        let group = DispatchGroup()
        let holding = DispatchSemaphore(value: 0)
        // Short back-to-back transactions: the lock is free only for moments.
        DispatchQueue.global().async(group: group) {
            do {
                let busy = try Realm(path: path)
                for index in 0..<12 {
                    try busy.write {
                        _ = try busy.create("Person", value: ["name": .string("busy \(index)")])
                        if index == 0 { holding.signal() }
                        Thread.sleep(forTimeInterval: 0.05)
                    }
                }
            } catch {
                collected.errors.withLock { $0.append("\(error)") }
            }
        }
        holding.wait()
        let waiting = try Realm(configuration: Realm.Configuration(path: path, busyTimeout: 0.2))
        try waiting.write { _ = try waiting.create("Person", value: ["name": "waiting"]) }
        group.wait()
        #expect(collected.errors.withLock { $0 } == [])
        #expect(try waiting.count("Person") == 13)
        #expect(try RealmChecker(path: path).check().messages == [])
    }

    @Test(arguments: RealmEngine.tested) func threadsWritingThroughTheirOwnRealmsDrawDistinctKeysAndLoseNothing(on engine: RealmEngine) throws {
        let path = try engine.freshRealm()
        _ = try Realm(path: path, schema: try Fixtures.samplesSchema())
        let writes = 30
        let perWrite = 4
        let errors = onThreads { thread in
            let realm = try Realm(path: path)
            for write in 0..<writes {
                try realm.write {
                    for person in 0..<perWrite {
                        let name = "t\(thread)-\(write)-\(person)"
                        _ = try realm.create("Person", value: [
                            "name": .string(name), "address": ["city": .string("City \(thread)")],
                            "dogs": [["name": .string("dog of \(name)"), "age": .int(Int64(person)), "companion": ["a", 1]]],
                        ])
                    }
                }
            }
        }
        #expect(errors == [])
        let total = Self.threads * writes * perWrite
        let realm = try Realm(path: path)
        let people = Array(try realm.objects("Person"))
        #expect(try Set(people.map { try $0["id"] }) == Set((1...total).map { Value.int(Int64($0)) }))
        #expect(Set(try people.map { try $0["name"] }).count == total)
        #expect(try realm.count("Dog") == total)
        #expect(try realm.count("Address") == total)
        #expect(try RealmChecker(path: path).check().messages == [])
    }
}
