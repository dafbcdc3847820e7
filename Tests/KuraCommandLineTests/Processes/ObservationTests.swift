import Foundation
@testable import Kura
import KuraTestSupport
import Testing

/// `Results.observe`, `changes` and object observation: Realm's change reports, from this realm,
/// another handle in another task and another process.
@Suite struct ObservationTests {
    static func name(_ hound: Hound) -> String {
        "\(hound.name)/" + hound.owners.map(\.name).joined(separator: ",")
    }

    /// Realm's "Object has been deleted or invalidated" crash, as a scenario that must not crash.
    @Test func deletedDogsAndOwnersArriveAsDeletionsAndReadAsTypedErrors() async throws {
        let (realm, path) = try houndRealm()
        try realm.write {
            try realm.add(Keeper(id: 1, name: "Alice", hounds: [Hound(name: "Rex", age: 3), Hound(name: "Fido", age: 1)]))
            try realm.add(Keeper(id: 2, name: "Bob", hounds: [Hound(name: "Max", age: 5)]))
            try realm.add(Keeper(id: 3, name: "Chen", hounds: [Hound(name: "Bella", age: 2)]))
        }
        let (dogsToken, dogs) = try realm.objects(Hound.self).record(Self.name)
        let (keepersToken, keepers) = try realm.objects(Keeper.self).record(\.name)
        defer {
            dogsToken.invalidate()
            keepersToken.invalidate()
        }
        #expect(try await dogs.wait(for: 1) == [.initial(["Rex/Alice", "Fido/Alice", "Max/Bob", "Bella/Chen"])])
        #expect(try await keepers.wait(for: 1) == [.initial(["Alice", "Bob", "Chen"])])
        let rex = try #require(try realm.objects("Hound").first)
        func integrity(_ step: String) throws {
            let result = try Fixtures.run("/usr/bin/sqlite3", [path, "pragma integrity_check"])
            #expect(result.stdout == "ok\n", "\(step): \(result.stdout) \(result.stderr)")
        }
        try integrity("start")

        // Another task, with a handle of its own, deletes Rex and his owner.
        try await Task.detached {
            let other = try Realm(path: path)
            try other.write {
                for (type, name) in [("Hound", "Rex"), ("Keeper", "Alice")] {
                    if let object = try other.objects(type, where: "name == '\(name)'").first { try other.delete(object) }
                }
            }
        }.value
        #expect(try await dogs.wait(for: 2).last
            == .update(["Fido/", "Max/Bob", "Bella/Chen"], deletions: [0], insertions: [], modifications: []))
        #expect(try await keepers.wait(for: 2).last == .update(["Bob", "Chen"], deletions: [0], insertions: [], modifications: []))
        try integrity("after task")
        #expect(rex.isInvalidated)
        #expect(throws: KuraError.store(.objectDeleted, "object Hound#1 has been deleted or was never stored")) { try rex["name"] }
        #expect(throws: KuraError.store(.objectDeleted, "object Hound#1 has been deleted or was never stored")) {
            try rex.linkingObjects("owners")
        }
        #expect(try realm.object(ofType: Keeper.self, forPrimaryKey: 1) == nil)

        // Another process deletes Max, then his owner.
        let kura = Fixtures.executable("kura")
        let deleted = try Fixtures.run(kura, ["delete", path, "--type", "Hound", "--where", "name == 'Max'"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let finished = Date()
        #expect(try await dogs.wait(for: 3).last
            == .update(["Fido/", "Bella/Chen"], deletions: [1], insertions: [], modifications: []))
        // The notifier polls far more often than this; the bound leaves room for a machine busy with the whole suite.
        #expect(Date().timeIntervalSince(finished) < 3, "another process's commit is reported within seconds")
        try integrity("after kura delete Max")
        #expect(try Fixtures.run(kura, ["delete", path, "--type", "Keeper", "--where", "name == 'Bob'"]).status == 0)
        try integrity("after kura delete Bob")
        let lastKeepers = try await keepers.wait(for: 4)
        #expect(lastKeepers.last == .update(["Chen"], deletions: [0], insertions: [], modifications: []))
        #expect(try await dogs.settle().count == 3, "deleting Bob changed no dog")
        let problems = try Fixtures.problems(realm)
        let log = try realm.changes(after: 0)
        #expect(problems == [], "\(problems) \(log)")
    }

    /// One step of a write in the table below.
    enum Step: Sendable, CustomStringConvertible {
        case insert(String, age: Int)
        case delete(String)
        case age(String, Int)
        case color(String, String)

        var description: String {
            switch self {
            case .insert(let name, let age): "insert \(name) (\(age))"
            case .delete(let name): "delete \(name)"
            case .age(let name, let age): "\(name).age = \(age)"
            case .color(let name, let color): "\(name).color = \(color)"
            }
        }
    }

    /// A sequence of steps committed in one write to A (1), B (2), C (3), D (4), and the indexes
    /// Realm reports for it: deletions in the old results, insertions and modifications in the new.
    struct Case: Sendable, CustomStringConvertible {
        var steps: [Step]
        var filter: String? = nil
        var sort: (key: String, ascending: Bool)? = nil
        var deletions: [Int] = []
        var insertions: [Int] = []
        var modifications: [Int] = []

        var description: String {
            steps.map(\.description).joined(separator: ", ")
                + (filter.map { " where \($0)" } ?? "") + (sort.map { " sorted by \($0.key)\($0.ascending ? "" : " descending")" } ?? "")
        }
    }

    static let cases: [Case] = [
        Case(steps: [.insert("E", age: 5), .insert("F", age: 6)], insertions: [4, 5]),
        Case(steps: [.delete("B"), .delete("D")], deletions: [1, 3]),
        Case(steps: [.age("C", 30)], modifications: [2]),
        Case(steps: [.delete("A"), .age("C", 30), .insert("E", age: 5)], deletions: [0], insertions: [3], modifications: [1]),
        Case(steps: [.insert("E", age: 5), .delete("E"), .age("B", 20)], modifications: [1]),
        Case(steps: [.age("B", 20), .delete("B")], deletions: [1]),
        Case(steps: [.delete("A"), .delete("B"), .delete("C"), .delete("D")], deletions: [0, 1, 2, 3]),
        Case(steps: [.age("A", 5)], sort: ("age", true), deletions: [0], insertions: [3]),
        Case(steps: [.color("C", "red")], sort: ("age", true), modifications: [2]),
        Case(steps: [.insert("X", age: 2)], sort: ("age", true), insertions: [2]),
        Case(steps: [.delete("D"), .insert("E", age: 9)], sort: ("age", false), deletions: [0], insertions: [0]),
        Case(steps: [.age("D", 0), .color("B", "red")], sort: ("age", true), deletions: [3], insertions: [0], modifications: [2]),
        Case(steps: [.age("B", 3)], filter: "age >= 3", insertions: [0]),
        Case(steps: [.age("C", 1), .color("D", "red")], filter: "age >= 3", deletions: [0], modifications: [0]),
        Case(steps: [.insert("E", age: 7), .age("A", 8)], filter: "age >= 3", sort: ("age", true), insertions: [2, 3]),
    ]

    @Test(arguments: cases) func indexesAreThoseRealmReports(_ example: Case) async throws {
        let (realm, _) = try houndRealm()
        try realm.write {
            for (name, age) in [("A", 1), ("B", 2), ("C", 3), ("D", 4)] { try realm.add(Hound(name: name, age: age)) }
        }
        var results = try realm.objects(Hound.self)
        if let filter = example.filter { results = try results.filter(filter) }
        if let sort = example.sort { results = try results.sorted(byKeyPath: sort.key, ascending: sort.ascending) }
        let (token, seen) = results.record(\.name)
        defer { token.invalidate() }
        try await seen.wait(for: 1)
        try realm.write {
            for step in example.steps {
                switch step {
                case .insert(let name, let age):
                    try realm.add(Hound(name: name, age: age))
                case .delete(let name):
                    if let object = try realm.objects("Hound", where: "name == '\(name)'").first { try realm.delete(object) }
                case .age(let name, let age):
                    try realm.objects("Hound", where: "name == '\(name)'").first?.setValue(.int(Int64(age)), forKey: "age")
                case .color(let name, let color):
                    try realm.objects("Hound", where: "name == '\(name)'").first?.setValue(.string(color), forKey: "color")
                }
            }
        }
        let changes = try await seen.wait(for: 2)
        let names = results.map(\.name)
        #expect(changes.dropFirst() == [
            .update(names, deletions: example.deletions, insertions: example.insertions, modifications: example.modifications)
        ])
    }

    /// Applying every update to a copy of the first results gives the last results: no commit lost,
    /// none reported twice. Compared by object id: a report's results hold the objects it describes,
    /// though one may be deleted by the time it is read.
    @Test func everyCommitReachesTheObserverOnce() async throws {
        let (realm, path) = try houndRealm()
        let results = try realm.objects(Hound.self).sorted(byKeyPath: "age")
        let seen = ChangeRecorder<IdChange>()
        let token = results.observe { change in
            switch change {
            case .initial(let results):
                seen.record(IdChange(ids: results.pinnedIds ?? [], deletions: [], insertions: [], initial: true))
            case .update(let results, let deletions, let insertions, _):
                seen.record(IdChange(ids: results.pinnedIds ?? [], deletions: deletions, insertions: insertions, initial: false))
            case .error(let error):
                Issue.record("observing failed: \(error)")
            }
        }
        defer { token.invalidate() }
        try await seen.wait(for: 1)
        for step in 0..<60 {
            let name = "h\(step % 17)"
            let age = (step * 7) % 23
            let deleting = step % 5 == 4
            if step % 2 == 1 {
                // Every other commit comes from another handle in another task.
                try await Task.detached { try Self.commit(name: name, age: age, deleting: deleting, in: try Realm(path: path)) }.value
            } else {
                try Self.commit(name: name, age: age, deleting: deleting, in: realm)
            }
            if step % 3 == 0 { try await Task.sleep(for: .milliseconds(60)) }
        }
        let final = try results.allIds()
        #expect(!final.isEmpty)
        let deadline = Date().addingTimeInterval(5)
        while seen.changes.last?.ids != final && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        var mirror: [Int64] = []
        for change in seen.changes {
            if change.initial {
                mirror = change.ids
                continue
            }
            guard change.deletions.allSatisfy(mirror.indices.contains),
                  change.insertions.allSatisfy(change.ids.indices.contains)
            else {
                Issue.record("indexes outside the results: \(change)")
                break
            }
            for index in change.deletions.reversed() { mirror.remove(at: index) }
            for index in change.insertions where index <= mirror.count { mirror.insert(change.ids[index], at: index) }
            #expect(mirror == change.ids, "an update applied to the results before it gives the results after it")
        }
        #expect(mirror == final)
        #expect(seen.changes.count >= 20, "commits apart in time come as updates of their own")
    }

    struct IdChange: Sendable {
        var ids: [Int64]
        var deletions: [Int]
        var insertions: [Int]
        var initial: Bool
    }

    /// Deletes the hound `name` when `deleting`, else sets its age, inserting it if needed.
    static func commit(name: String, age: Int, deleting: Bool, in realm: Realm) throws {
        try realm.write {
            let existing = try realm.objects("Hound", where: "name == '\(name)'").first
            if let existing, deleting {
                try realm.delete(existing)
            } else if let existing {
                try existing.setValue(.int(Int64(age)), forKey: "age")
            } else if !deleting {
                try realm.add(Hound(name: name, age: age))
            }
        }
    }

    @Test func anObservedObjectReportsItsChangedPropertiesThenItsDeletion() async throws {
        let (realm, path) = try houndRealm()
        try realm.write { try realm.add(Keeper(id: 7, name: "Bob", hounds: [Hound(name: "Max", age: 5)])) }
        let recorder = ChangeRecorder<String>()
        let token = try realm.observe(Keeper.self, primaryKey: 7) { change in
            switch change {
            case .change(let keeper, let properties):
                recorder.record("\(keeper.name): " + properties.map { "\($0.name) \($0.oldValue.map(String.init(describing:)) ?? "-") -> \($0.newValue.map(String.init(describing:)) ?? "-")" }.joined(separator: "; "))
            case .deleted:
                recorder.record("deleted")
            case .error(let error):
                recorder.record("error: \(error)")
            }
        }
        defer { token.invalidate() }
        try await Task.sleep(for: .milliseconds(100))
        try realm.write { try realm.create("Keeper", value: ["id": 7, "name": "Robert"], update: .modified) }
        try await recorder.wait(for: 1)
        try realm.write { try realm.create("Keeper", value: ["id": 7, "name": "Robert", "hounds": []], update: .modified) }
        try await recorder.wait(for: 2)
        let kura = Fixtures.executable("kura")
        #expect(try Fixtures.run(kura, ["delete", path, "--type", "Keeper"]).status == 0)
        let seen = try await recorder.wait(for: 3)
        #expect(seen == [
            #"Robert: name "Bob" -> "Robert""#,
            #"Robert: hounds [Hound#1] -> []"#,
            "deleted",
        ])
        #expect(try await recorder.settle().count == 3)
    }

    @Test func aCommitRightAfterObservingAnObjectBeginsIsReported() async throws {
        let (realm, _) = try houndRealm()
        try realm.write { try realm.add(Keeper(id: 7, name: "name 0")) }
        // The notifier reads its first look at the object later, on its queue: the change must
        // still be measured from the values the object had when `observe` was called.
        for round in 1...10 {
            let recorder = ChangeRecorder<String>()
            let token = try realm.observe(Keeper.self, primaryKey: 7) { change in
                if case .change(_, let properties) = change {
                    recorder.record(properties.map { "\($0.name) \($0.oldValue ?? .null) -> \($0.newValue ?? .null)" }.joined(separator: "; "))
                }
            }
            try realm.write { try realm.create("Keeper", value: ["id": 7, "name": .string("name \(round)")], update: .modified) }
            #expect(try await recorder.wait(for: 1) == [#"name "name \#(round - 1)" -> "name \#(round)""#])
            token.invalidate()
        }
    }

    @Test func observingAnObjectDeletedMeanwhileReportsItsDeletion() async throws {
        let (realm, _) = try houndRealm()
        try realm.write { try realm.add(Keeper(id: 7, name: "Bob")) }
        guard let bob = try realm.object(ofType: "Keeper", forPrimaryKey: 7) else {
            Issue.record("no Bob")
            return
        }
        try realm.write { try realm.delete(bob) }
        let recorder = ChangeRecorder<String>()
        let token = realm.observe(bob) { change in
            if case .deleted = change { recorder.record("deleted") } else { recorder.record("\(change)") }
        }
        defer { token.invalidate() }
        #expect(try await recorder.wait(for: 1) == ["deleted"])
    }

    @Test func anInvalidatedTokenHearsNothingMoreAndTheLastOneStopsThePoller() async throws {
        let (realm, _) = try houndRealm()
        let results = try realm.objects(Hound.self)
        let (token, seen) = results.record(\.name)
        try await seen.wait(for: 1)
        #expect(ChangeNotifier.isWatching(realm))
        token.invalidate()
        try realm.write { try realm.add(Hound(name: "Rex", age: 1)) }
        #expect(try await seen.settle() == [.initial([])])
        #expect(!ChangeNotifier.isWatching(realm))
    }

    @Test func changesIsTheSameAsAnAsyncSequence() async throws {
        let (realm, _) = try houndRealm()
        let results = try realm.objects(Hound.self).filter("age >= %@", 3)
        var seen: [SeenChange] = []
        for try await change in results.changes {
            switch change {
            case .initial(let results):
                seen.append(.initial(results.map(\.name)))
                try realm.write {
                    try realm.add(Hound(name: "Rex", age: 3))
                    try realm.add(Hound(name: "Pup", age: 1))
                }
            case .update(let results, let deletions, let insertions, let modifications):
                seen.append(.update(results.map(\.name), deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error):
                seen.append(.error("\(error)"))
            }
            if seen.count == 2 { break }
        }
        #expect(seen == [.initial([]), .update(["Rex"], deletions: [], insertions: [0], modifications: [])])
    }

    @Test func aQueryThatNoLongerFitsTheSchemaIsAnError() async throws {
        let (realm, path) = try houndRealm()
        let (token, seen) = try realm.objects(Hound.self).filter("color == 'red'").record(\.name)
        defer { token.invalidate() }
        try await seen.wait(for: 1)
        // Another process removes the property the query reads.
        var hound = try #require(try Schema(models: [Hound.self]).types.first { $0.name == "Hound" })
        hound.properties.removeAll { $0.name == "color" }
        var schema = try Schema(models: [Hound.self, Keeper.self])
        schema.types = schema.types.map { $0.name == "Hound" ? hound : $0 }
        schema.version += 1
        _ = try Realm(configuration: .init(path: path, schema: schema, migrationBlock: { _, _ in }))
        let changes = try await seen.wait(for: 2)
        guard case .error(let message)? = changes.last else {
            Issue.record("expected an error, saw \(changes)")
            return
        }
        #expect(message.contains("color"))
    }
}
