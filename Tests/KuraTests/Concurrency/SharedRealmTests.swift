import Foundation
import GRDB
import Kura
import KuraTestSupport
import Synchronization
import Testing

/// A pup written by one of the concurrent writers: which writer, and which of its writes.
struct Litter: KuraObject, Sendable, Equatable {
    var name: String
    var writer: Int
    var round: Int
}

/// One `Realm` handle (or several on one file) used by many tasks and threads at once: writers with
/// `asyncWrite`, readers of `Results`. Run under the thread sanitizer too:
/// `swift test --sanitize=thread --scratch-path .build-tsan --filter SharedRealmTests`.
@Suite struct SharedRealmTests {
    static let writers = 8
    static let readers = 8
    static let rounds = 12

    static func schema() throws -> Schema { try Schema(models: [Litter.self]) }

    /// What the readers saw that they should not have.
    final class Findings: Sendable {
        let problems = Mutex<[String]>([])
        let reads = Mutex(0)
        /// How many writers have not finished yet.
        let writing = Mutex(SharedRealmTests.writers)

        func note(_ problem: String) { problems.withLock { $0.append(problem) } }
    }

    /// Writers add two litters per transaction while readers count and read them; `realm(i)` gives the
    /// handle task `i` uses (the same one, or one each).
    private func writeAndRead(_ realm: @escaping @Sendable (Int) throws -> Realm) async throws -> Findings {
        let findings = Findings()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<Self.writers {
                group.addTask {
                    let realm = try realm(writer)
                    for round in 0..<Self.rounds {
                        let count = try await realm.asyncWrite { realm in
                            try realm.add(Litter(name: "pup \(writer)-\(round)a", writer: writer, round: round))
                            try realm.add(Litter(name: "pup \(writer)-\(round)b", writer: writer, round: round))
                            return try realm.objects(Litter.self).count
                        }
                        if count % 2 != 0 { findings.note("writer \(writer) counted \(count) in its transaction") }
                    }
                    findings.writing.withLock { $0 -= 1 }
                }
            }
            for reader in 0..<Self.readers {
                group.addTask {
                    let realm = try realm(Self.writers + reader)
                    let litters = try realm.objects(Litter.self)
                    var last = 0
                    repeat {
                        let count = try litters.count
                        // A transaction adds two litters: a read sees both or neither, never fewer than before.
                        if count % 2 != 0 || count < last { findings.note("reader \(reader) counted \(count) after \(last)") }
                        last = count
                        if count > 0 {
                            let first = try litters.first, latest = try litters[count - 1]
                            if first?.name.hasPrefix("pup ") != true || !latest.name.hasPrefix("pup ") {
                                findings.note("reader \(reader) read \(String(describing: first)) and \(latest)")
                            }
                        }
                        let mine = try litters.filter("writer == %@", reader % Self.writers)
                        if try mine.count % 2 != 0 { findings.note("reader \(reader) counted an odd number of its writer's litters") }
                        findings.reads.withLock { $0 += 1 }
                        await Task.yield()
                    } while findings.writing.withLock { $0 } > 0
                }
            }
            try await group.waitForAll()
        }
        return findings
    }

    /// Every pup each writer wrote is stored once.
    private func expectEveryWrite(in realm: Realm) throws {
        let litters = try realm.objects(Litter.self).sorted(by: [SortDescriptor(keyPath: "writer"), SortDescriptor(keyPath: "name")])
        #expect(try litters.count == Self.writers * Self.rounds * 2)
        var expected: [String] = []
        for writer in 0..<Self.writers {
            expected += (0..<Self.rounds).flatMap { ["pup \(writer)-\($0)a", "pup \(writer)-\($0)b"] }.sorted()
        }
        #expect(litters.map(\.name) == expected)
        #expect(litters.iterationError == nil)
    }

    @Test func eightWritersAndEightReadersShareOneHandle() async throws {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Self.schema())
        let findings = try await writeAndRead { _ in realm }
        #expect(findings.problems.withLock { $0 } == [])
        #expect(findings.reads.withLock { $0 } >= Self.readers)
        try expectEveryWrite(in: realm)
        #expect(try Fixtures.problems(realm) == [])
    }

    @Test func eightWritersAndEightReadersWithAHandleEachOnOneFile() async throws {
        let path = try Fixtures.realmPath()
        let schema = try Self.schema()
        _ = try Realm(path: path, schema: schema)
        let findings = try await writeAndRead { _ in try Realm(path: path) }
        #expect(findings.problems.withLock { $0 } == [])
        try expectEveryWrite(in: try Realm(path: path))
    }

    @Test func threadsSharingAHandleWriteWithTheSynchronousAPI() throws {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Self.schema())
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: Self.writers) { writer in
            do {
                for round in 0..<Self.rounds {
                    try realm.write {
                        try realm.add(Litter(name: "pup \(writer)-\(round)a", writer: writer, round: round))
                        // Realm methods called inside the block use its transaction.
                        #expect(realm.isInWriteTransaction)
                        #expect(try realm.objects(Litter.self).count % 2 == 1)
                        try realm.add(Litter(name: "pup \(writer)-\(round)b", writer: writer, round: round))
                    }
                }
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        #expect(errors.withLock { $0 } == [])
        try expectEveryWrite(in: realm)
    }

    @Test func aWriteTransactionBelongsToTheThreadThatOpenedIt() throws {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Self.schema())
        let inside = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0)
        let writer = Thread {
            try? realm.write {
                try realm.add(Litter(name: "held", writer: 0, round: 0))
                inside.signal()
                finish.wait()
            }
        }
        writer.start()
        inside.wait()
        // Another thread is not in the transaction: it may not add to it, nor nest a write in it.
        #expect(!realm.isInWriteTransaction)
        expectKuraError(.store) { try realm.add(Litter(name: "stray", writer: 1, round: 0)) }
        do {
            try realm.add(Litter(name: "stray", writer: 1, round: 0))
        } catch let error as KuraError {
            #expect(error.code == .store(.notInWriteTransaction))
            #expect(error.message == "cannot modify a realm outside a write transaction: wrap the change in realm.write { … }")
        }
        finish.signal()
        // Its own write waits for the other one to end, then runs.
        try realm.write { try realm.add(Litter(name: "after", writer: 1, round: 0)) }
        #expect(try realm.objects(Litter.self).map(\.name) == ["held", "after"])
    }

    @Test func aNestedWriteOnTheSameThreadIsRefused() throws {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Self.schema())
        do {
            try realm.write { try realm.write { try realm.add(Litter(name: "inner", writer: 0, round: 0)) } }
            Issue.record("a nested write ran")
        } catch let error as KuraError {
            #expect(error.code == .store(.notInWriteTransaction))
            #expect(error.message == "the realm is already in a write transaction")
        }
        #expect(try realm.objects(Litter.self).count == 0)
    }

    @Test func asyncWriteReturnsTheBlocksValueAndRollsBackWhatThrows() async throws {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Self.schema())
        let name = try await realm.asyncWrite { realm in
            try realm.add(Litter(name: "kept", writer: 0, round: 0)).name
        }
        #expect(name == "kept")
        struct Refusal: Error, Equatable {}
        await #expect(throws: Refusal()) {
            try await realm.asyncWrite { realm in
                try realm.add(Litter(name: "dropped", writer: 0, round: 1))
                throw Refusal()
            }
        }
        await expectKuraError(.store) {
            try await realm.asyncWrite { realm in try realm.create("Nothing", value: [:]) }
        }
        // The block may write through the handle it captured as well as the one it is given.
        try await realm.asyncWrite { _ in
            #expect(realm.isInWriteTransaction)
            try realm.add(Litter(name: "captured", writer: 0, round: 2))
        }
        // Objects made in the block belong to the handle asyncWrite was called on.
        let made = try await realm.asyncWrite { realm in
            try realm.create("Litter", value: ["name": "made", "writer": 0, "round": 3])
        }
        #expect(made.realm === realm)
        #expect(try realm.objects("Litter").last == made)
        #expect(try realm.objects(Litter.self).map(\.name) == ["kept", "captured", "made"])
        #expect(!realm.isInWriteTransaction)
    }

    @Test func asyncWriteOnARealmInMemory() async throws {
        let realm = try Realm(path: ":memory:", schema: try Self.schema())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<Self.writers {
                group.addTask {
                    try await realm.asyncWrite { realm in try realm.add(Litter(name: "pup \(writer)", writer: writer, round: 0)) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try realm.objects(Litter.self).sorted(byKeyPath: "writer").map(\.name) == (0..<Self.writers).map { "pup \($0)" })
    }

    @Test func anAsyncWriteCancelledBeforeItStartsWritesNothing() async throws {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Self.schema())
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        // The first write holds the file's writer queue until released.
        let first = Task {
            try await realm.asyncWrite { realm in
                started.signal()
                release.wait()
                try realm.add(Litter(name: "first", writer: 0, round: 0))
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                started.wait()
                continuation.resume()
            }
        }
        let second = Task { try await realm.asyncWrite { realm in try realm.add(Litter(name: "second", writer: 0, round: 1)) } }
        second.cancel()
        release.signal()
        _ = try await first.value
        await #expect(throws: CancellationError.self) { try await second.value }
        #expect(try realm.objects(Litter.self).map(\.name) == ["first"])
    }

    @Test @MainActor func asyncWriteWaitsForAnotherConnectionsLockOffTheMainActor() async throws {
        let path = try Fixtures.realmPath()
        let realm = try Realm(path: path, schema: try Self.schema())
        // Another connection (another process would do the same) holds the write lock.
        let other = try DatabaseQueue(path: path)
        let holder = DispatchSemaphore(value: 0), holding = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? other.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                holding.signal()
                holder.wait()
                try db.execute(sql: "COMMIT")
            }
        }
        holding.wait()
        let write = Task { try await realm.asyncWrite { realm in try realm.add(Litter(name: "waited", writer: 0, round: 0)) } }
        // The main actor runs on while the write waits for the lock.
        var turns = 0
        for _ in 0..<5 {
            try await Task.sleep(for: .milliseconds(20))
            turns += 1
        }
        #expect(turns == 5)
        #expect(try realm.objects(Litter.self).count == 0)
        holder.signal()
        _ = try await write.value
        #expect(try realm.objects(Litter.self).map(\.name) == ["waited"])
    }

    @Test func resultsAndObjectsCrossToOtherTasks() async throws {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Self.schema())
        try realm.write {
            for round in 0..<250 { try realm.add(Litter(name: String(format: "pup %03d", round), writer: round % 3, round: round)) }
        }
        let litters = try realm.objects(Litter.self).filter("writer == %@", 1).sorted(byKeyPath: "round", ascending: false)
        let objects = try realm.objects("Litter")
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for offset in 0..<8 {
                group.addTask {
                    let pup = try litters[offset * 10]
                    let object = try objects[offset * 30]
                    guard case .string(let name) = try object["name"] else { return -1 }
                    return try litters.count + (pup.round % 3 == 1 ? 0 : 1000) + (name == String(format: "pup %03d", offset * 30) ? 0 : 1000)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 83, count: 8))
    }
}
