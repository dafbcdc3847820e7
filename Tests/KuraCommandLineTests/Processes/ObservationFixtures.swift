import Foundation
@testable import Kura
import KuraTestSupport
import Synchronization
import Testing

/// What an observer saw, in a form tests compare: names instead of results.
enum SeenChange: Equatable, Sendable {
    case initial([String])
    case update([String], deletions: [Int], insertions: [Int], modifications: [Int])
    case error(String)
}

/// Collects what an observation reports, for a test to wait on.
final class ChangeRecorder<Change: Sendable>: Sendable {
    private let seen = Mutex<[Change]>([])

    func record(_ change: Change) {
        seen.withLock { $0.append(change) }
    }

    var changes: [Change] { seen.withLock { $0 } }

    /// Waits until `count` changes have been recorded, at most `timeout` seconds; returns them.
    @discardableResult
    func wait(for count: Int, timeout: TimeInterval = 5) async throws -> [Change] {
        let deadline = Date().addingTimeInterval(timeout)
        while changes.count < count && Date() < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        return changes
    }

    /// Waits `interval` seconds and returns whatever was recorded, to show that nothing more came.
    func settle(_ interval: TimeInterval = 0.3) async throws -> [Change] {
        try await Task.sleep(for: .milliseconds(Int(interval * 1000)))
        return changes
    }
}

extension Results {
    /// Observes the results, recording each change with the names `name` gives its objects.
    func record(_ name: @escaping @Sendable (Element) -> String) -> (NotificationToken, ChangeRecorder<SeenChange>) {
        let recorder = ChangeRecorder<SeenChange>()
        let token = observe { change in
            switch change {
            case .initial(let results):
                recorder.record(.initial(results.map(name)))
            case .update(let results, let deletions, let insertions, let modifications):
                recorder.record(.update(results.map(name), deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error):
                recorder.record(.error("\(error)"))
            }
        }
        return (token, recorder)
    }
}

/// A small model of dogs and their owners for the observation tests: `owners` is computed from
/// the owners' lists, as Realm's `LinkingObjects`.
final class Hound: KuraObject {
    var name: String
    var age: Int
    var color: String?
    @Backlinks var owners: [Keeper]
    static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Keeper.self, "hounds")] }

    init(name: String, age: Int, color: String? = nil) {
        self.name = name
        self.age = age
        self.color = color
    }
}

final class Keeper: KuraObject {
    var id: Int
    var name: String
    var hounds: [Hound]
    static var primaryKey: String? { "id" }

    init(id: Int, name: String, hounds: [Hound] = []) {
        self.id = id
        self.name = name
        self.hounds = hounds
    }
}

/// A realm file of hounds and keepers: the schema of `Hound` and `Keeper`.
func houndRealm() throws -> (Realm, String) {
    let path = try Fixtures.realmPath("hounds.realm")
    return (try Realm(path: path, schema: try Schema(models: [Hound.self, Keeper.self])), path)
}
