import Foundation
import Kura
import KuraTestSupport
import Synchronization
import Testing

/// A note written by one of the concurrent writers; `done` is set by a later write of the same writer.
struct Jotting: KuraObject, Sendable, Equatable {
    var name: String
    var writer: Int
    var round: Int
    var done: Bool
    static var primaryKey: String? { "name" }
}

/// Eight tasks write with `asyncWrite` while eight tasks read and observe `Results` of the same
/// file, through one shared handle or a handle per task. Every observer must end with exactly what
/// the realm holds, having seen every insertion. Run under the thread sanitizer too:
/// `swift test --sanitize=thread --scratch-path .build-tsan --filter ObservedConcurrencyTests`.
@Suite struct ObservedConcurrencyTests {
    static let writers = 8
    static let rounds = 10
    /// How long observers get to catch up with the last commit (the notifier polls several times a second).
    static let settleTimeout: TimeInterval = 10

    /// One observer's view: the names it holds, rebuilt from the indexes it was given, and every
    /// name it saw inserted.
    final class Replica: Sendable {
        struct State {
            var names: [String] = []
            var inserted: Set<String> = []
            var updates = 0
            var problems: [String] = []
        }
        let state = Mutex(State())

        /// Applies a change: removes `deletions` (indexes in the previous names), then inserts the
        /// objects at `insertions` (indexes in `results`).
        func apply(_ change: RealmCollectionChange<Results<Jotting>>) {
            do {
                switch change {
                case .initial(let results):
                    let names = try results[0..<results.count].map(\.name)
                    state.withLock { $0.names = names; $0.inserted.formUnion(names) }
                case .update(let results, let deletions, let insertions, let modifications):
                    let count = try results.count
                    let inserted = try insertions.map { try results[$0].name }
                    state.withLock { state in
                        state.updates += 1
                        guard deletions.allSatisfy({ state.names.indices.contains($0) }) else {
                            return state.problems.append("deletions \(deletions) outside \(state.names.count) names")
                        }
                        for index in deletions.sorted(by: >) { state.names.remove(at: index) }
                        for (index, name) in zip(insertions, inserted) {
                            guard index <= state.names.count else {
                                return state.problems.append("insertion \(index) past \(state.names.count) names")
                            }
                            state.names.insert(name, at: index)
                        }
                        state.inserted.formUnion(inserted)
                        if state.names.count != count { state.problems.append("\(state.names.count) names for \(count) results") }
                        if let outside = modifications.first(where: { !(0..<count).contains($0) }) {
                            state.problems.append("modification \(outside) outside \(count) results")
                        }
                    }
                case .error(let error):
                    state.withLock { $0.problems.append("observation failed: \(error)") }
                }
            } catch {
                state.withLock { $0.problems.append("reading a reported change failed: \(error)") }
            }
        }
    }

    /// How far the writers are, and what the readers found.
    final class Progress: Sendable {
        /// Transactions committed.
        let written = Mutex(0)
        /// Readers whose observer holds what phase one wrote.
        let caughtUp = Mutex(0)
        let reads = Mutex(0)
        /// Each reader's query's names once the writers were done.
        let finals = Mutex<[[String]]>(Array(repeating: [], count: 8))
    }

    /// The queries the readers observe, by reader: all, sorted, filtered on what never changes, and
    /// filtered on `done`, which later writes change (so objects leave them without being deleted).
    static func query(_ reader: Int, _ realm: Realm) throws -> Results<Jotting> {
        let all = try realm.objects(Jotting.self)
        switch reader % 8 {
        case 0, 1: return all
        case 2: return try all.sorted(byKeyPath: "name", ascending: false)
        case 3: return try all.sorted(by: [SortDescriptor(keyPath: "round", ascending: false), SortDescriptor(keyPath: "writer")])
        case 4: return try all.filter("writer < %@", 4)
        case 5: return try all.filter("writer >= %@", 4).sorted(byKeyPath: "name")
        case 6: return try all.filter("done == %@", false)
        default: return try all.filter("done == %@", false).sorted(byKeyPath: "round", ascending: false)
        }
    }

    /// Whether the query's objects can leave it only by deletion (so every insertion stays visible
    /// until the writers' deleting phase).
    static func keepsWhatItInserts(_ reader: Int) -> Bool { reader % 8 < 6 }

    static func name(_ writer: Int, _ round: Int, _ part: String) -> String { "w\(writer) r\(round) \(part)" }

    /// Phase one: each writer adds two notes per transaction and marks its previous `a` note done.
    /// Phase two, once every observer has caught up with phase one: each deletes its done notes.
    static func write(_ writer: Int, _ realm: Realm, _ progress: Progress) async throws {
        for round in 0..<rounds {
            try await realm.asyncWrite { realm in
                try realm.add(Jotting(name: name(writer, round, "a"), writer: writer, round: round, done: false))
                try realm.add(Jotting(name: name(writer, round, "b"), writer: writer, round: round, done: false))
                if round > 0 {
                    try realm.add(Jotting(name: name(writer, round - 1, "a"), writer: writer, round: round - 1, done: true), update: .modified)
                }
            }
            progress.written.withLock { $0 += 1 }
        }
        // An update is read when its observer gets to it, through the realm as it is then, and
        // reading an object deleted since throws: deleting starts once every observer has read the
        // insertions, so that the test sees them all.
        let deadline = Date().addingTimeInterval(settleTimeout)
        while progress.caughtUp.withLock({ $0 }) < 8 && Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let deleted = try await realm.asyncWrite { realm in try realm.delete("Jotting", where: "writer == \(writer) AND done == true") }
        if deleted != rounds - 1 { throw UnexpectedDeletions(writer: writer, deleted: deleted) }
        progress.written.withLock { $0 += 1 }
    }

    struct UnexpectedDeletions: Error { var writer: Int, deleted: Int }

    /// Starts observing `results` for reader `reader`: half through `changes`, half through
    /// `observe(on:)` (on a queue of their own or the notifier's). Returns what stops it.
    static func observe(_ reader: Int, _ results: Results<Jotting>, into replica: Replica) -> @Sendable () -> Void {
        if reader % 2 == 0 {
            let task = Task {
                do {
                    for try await change in results.changes { replica.apply(change) }
                } catch {
                    replica.state.withLock { $0.problems.append("the changes sequence failed: \(error)") }
                }
            }
            return { task.cancel() }
        }
        let queue = reader % 4 == 1 ? DispatchQueue(label: "observer \(reader)") : nil
        let token = results.observe(on: queue) { replica.apply($0) }
        return { token.invalidate() }
    }

    /// Runs the writers and the readers, each using the handle `realm(task)` gives; returns each
    /// reader's replica, its query's final names, and how many reads the readers made.
    private func run(_ realm: @escaping @Sendable (Int) throws -> Realm) async throws -> (replicas: [Replica], finals: [[String]], reads: Int) {
        let replicas = (0..<8).map { _ in Replica() }
        let progress = Progress()
        let phaseOne = Self.writers * Self.rounds, total = Self.writers * (Self.rounds + 1)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<Self.writers {
                group.addTask { try await Self.write(writer, try realm(writer), progress) }
            }
            for reader in 0..<8 {
                group.addTask {
                    let realm = try realm(Self.writers + reader)
                    let results = try Self.query(reader, realm)
                    let stop = Self.observe(reader, results, into: replicas[reader])
                    defer { stop() }
                    for phaseEnd in [phaseOne, total] {
                        // Reads the live results while the writers write.
                        while progress.written.withLock({ $0 }) < phaseEnd {
                            let count = try results.count
                            if count > 0 {
                                _ = try results.first
                                _ = try results[0..<min(count, 150)]
                            }
                            for note in results.prefix(30) where !note.name.hasPrefix("w") {
                                replicas[reader].state.withLock { $0.problems.append("read \(note.name)") }
                            }
                            if let error = results.iterationError { throw error }
                            progress.reads.withLock { $0 += 1 }
                            await Task.yield()
                        }
                        // Waits until the observer has caught up with the phase's last commit.
                        let now = try results[0..<results.count].map(\.name)
                        let deadline = Date().addingTimeInterval(Self.settleTimeout)
                        while replicas[reader].state.withLock({ $0.names }) != now && Date() < deadline {
                            try await Task.sleep(for: .milliseconds(10))
                        }
                        if phaseEnd == phaseOne {
                            progress.caughtUp.withLock { $0 += 1 }
                        } else {
                            progress.finals.withLock { $0[reader] = now }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        return (replicas, progress.finals.withLock { $0 }, progress.reads.withLock { $0 })
    }

    /// The checks both variants make: what each observer holds is what the realm holds, it saw every
    /// insertion its query could show, and nothing went wrong.
    private func expectEveryWriteObserved(_ outcome: (replicas: [Replica], finals: [[String]], reads: Int), in realm: Realm) throws {
        let stored = try realm.objects(Jotting.self).map(\.name)
        // Phase two deleted every `a` note but the last of each writer.
        #expect(stored.count == Self.writers * (Self.rounds + 1))
        for reader in 0..<8 {
            let expected = try Self.query(reader, realm).map(\.name)
            let state = outcome.replicas[reader].state.withLock { $0 }
            #expect(state.problems == [], "reader \(reader)")
            #expect(outcome.finals[reader] == expected, "reader \(reader)")
            #expect(state.names == expected, "reader \(reader)'s observer ended with \(state.names.count) of \(expected.count) notes")
            #expect(state.updates >= 1, "reader \(reader)")
            if Self.keepsWhatItInserts(reader) {
                let everWritten = (0..<Self.writers).flatMap { writer in
                    (0..<Self.rounds).flatMap { [Self.name(writer, $0, "a"), Self.name(writer, $0, "b")] }
                }
                let shown = Set(everWritten.filter { name in
                    let writer = Int(name.dropFirst().prefix { $0 != " " }) ?? -1
                    return reader % 8 == 4 ? writer < 4 : reader % 8 == 5 ? writer >= 4 : true
                })
                #expect(state.inserted == shown, "reader \(reader) saw \(state.inserted.count) of \(shown.count) insertions")
            }
        }
        #expect(outcome.reads >= 8)
    }

    @Test(.timeLimit(.minutes(1))) func eightWritersAndEightObserversShareOneHandle() async throws {
        let realm = try Realm(path: try Fixtures.realmPath(), schema: try Schema(models: [Jotting.self]))
        let outcome = try await run { _ in realm }
        try expectEveryWriteObserved(outcome, in: realm)
    }

    @Test(.timeLimit(.minutes(1))) func eightWritersAndEightObserversWithAHandleEach() async throws {
        let path = try Fixtures.realmPath()
        _ = try Realm(path: path, schema: try Schema(models: [Jotting.self]))
        let outcome = try await run { _ in try Realm(path: path) }
        try expectEveryWriteObserved(outcome, in: try Realm(path: path))
    }
}
