import Foundation
import Synchronization

/// Watches one realm file for commits and tells its observers what changed: one notifier per
/// file, shared by every `Realm` of the process that observes it.
///
/// The notifier reads through a connection of its own, on its own serial queue, where every
/// observer's state lives and every computation runs. A timer on that queue polls the file every
/// `pollInterval`: the storage's version (which other connections' commits raise) and the change
/// log's version; nothing else is read unless one of them moved. The timer runs only while the
/// notifier has observers, so commits from this and any other process reach observers within a
/// poll interval and an unobserved realm costs nothing.
final class ChangeNotifier: @unchecked Sendable {
    /// How often the file is looked at while someone observes it.
    static let pollInterval: DispatchTimeInterval = .milliseconds(50)

    private static let registry = Mutex<[String: ChangeNotifier]>([:])

    /// The serial queue every use of the notifier's state runs on.
    let queue: DispatchQueue
    private let key: String
    /// The realm read through: a connection of the notifier's own, used only on `queue`; for a
    /// private in-memory realm (`:memory:`), which no other connection can open, the realm itself.
    private let reader: Realm
    private var observers: [Int: any ChangeObserver] = [:]
    private var nextObserver = 0
    private var timer: (any DispatchSourceTimer)?
    /// What the last look at the file saw.
    private var seen: FileState

    private struct FileState: Equatable {
        var storageVersion: Int64
        var logVersion: Int64
        var commits: Int
    }

    private init(key: String, reader: Realm) throws {
        self.key = key
        self.reader = reader
        queue = DispatchQueue(label: "Kura.ChangeNotifier")
        seen = FileState(storageVersion: 0, logVersion: 0, commits: 0)
        seen = try reader.read { snapshot in try Self.state(snapshot, reader) }
    }

    /// The notifier of `realm`'s file, made on first use.
    static func notifier(for realm: Realm) throws -> ChangeNotifier {
        let configuration = realm.configuration
        let key = configuration.sharedName ?? "memory#\(ObjectIdentifier(realm).hashValue)"
        if let existing = registry.withLock({ $0[key] }) { return existing }
        let reader: Realm
        if configuration.path == ":memory:" {
            reader = realm
        } else {
            reader = try Realm(configuration: Realm.Configuration(
                path: configuration.path, busyTimeout: configuration.busyTimeout, readOnly: configuration.readOnly))
        }
        let made = try ChangeNotifier(key: key, reader: reader)
        return registry.withLock { notifiers in
            if let existing = notifiers[key] { return existing }
            notifiers[key] = made
            return made
        }
    }

    /// Whether a notifier watches `realm`'s file (someone observes it).
    static func isWatching(_ realm: Realm) -> Bool {
        registry.withLock { notifiers in
            notifiers.values.contains { $0.reader === realm || $0.reader.configuration.path == realm.configuration.path }
        }
    }

    /// Adds an observer: on the queue, it reads its first state and reports it, then hears of every
    /// change until the token is invalidated.
    func add(_ observer: any ChangeObserver, token: NotificationToken) {
        queue.async { [self] in
            guard token.isActive else { return }
            let number = nextObserver
            nextObserver += 1
            do {
                try reader.read { snapshot in try observer.start(snapshot, reader) }
            } catch {
                observer.fail(error)
                return
            }
            observers[number] = observer
            startPolling()
            token.onInvalidate { [self] in queue.async { [self] in remove(number) } }
        }
    }

    private func remove(_ number: Int) {
        observers[number] = nil
        stopIfUnobserved()
    }

    /// Stops polling once no observer is left, and leaves the registry.
    private func stopIfUnobserved() {
        guard observers.isEmpty else { return }
        timer?.cancel()
        timer = nil
        // Forgotten only while unobserved: an observer added meanwhile found this notifier and
        // keeps it; the next one makes a new notifier with a fresh view of the file.
        Self.registry.withLock { notifiers in
            if notifiers[key] === self { notifiers[key] = nil }
        }
    }

    private func startPolling() {
        guard timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.pollInterval, repeating: Self.pollInterval, leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in self?.poll() }
        timer.resume()
        self.timer = timer
    }

    /// Looks at the file; when it changed, reads what the log says and lets every observer
    /// compare, all in one read transaction so they see one state of the file.
    private func poll() {
        guard !observers.isEmpty else { return }
        do {
            try reader.read { snapshot in
                let now = try Self.state(snapshot, reader)
                guard now != seen else { return }
                try reader.refreshCatalog(snapshot)
                let snapshot = snapshot.reading(by: reader.catalog)
                let span = try ChangeSpan.read(snapshot, after: seen.logVersion, to: now.logVersion, schema: reader.schema)
                seen = now
                for (number, observer) in observers.sorted(by: { $0.key < $1.key }) {
                    do {
                        if try !observer.refresh(snapshot, reader, span) { observers[number] = nil }
                    } catch {
                        observers[number] = nil
                        observer.fail(error)
                    }
                }
            }
        } catch {
            for observer in observers.values { observer.fail(error) }
            observers.removeAll()
        }
        stopIfUnobserved()
    }

    private static func state(_ snapshot: Realm.Snapshot, _ reader: Realm) throws -> FileState {
        FileState(storageVersion: try snapshot.storageVersion(), logVersion: try snapshot.changeLogVersion(), commits: reader.commitVersion)
    }
}

/// What the change log says happened between two looks at a file: per type, the ids modified and
/// deleted. `complete` is false when the log cannot tell (it was pruned, or the schema changed):
/// observers then count every object they keep as modified.
struct ChangeSpan {
    var modified: [String: Set<Int64>] = [:]
    var deleted: [String: Set<Int64>] = [:]
    var complete = true

    static func read(_ snapshot: some StorageSnapshot, after old: Int64, to new: Int64, schema: Schema) throws -> ChangeSpan {
        var span = ChangeSpan()
        guard new > old else { return span }
        let changes: [RealmChange]
        do {
            changes = try snapshot.changes(after: old, limit: Int.max, schema: schema)
        } catch let error as KuraError where error.code == .store(.changesPruned) {
            span.complete = false
            return span
        }
        for change in changes {
            if change.schemaChanged { span.complete = false }
            for (type, typeChanges) in change.types {
                span.modified[type, default: []].formUnion(typeChanges.modified)
                span.deleted[type, default: []].formUnion(typeChanges.deleted.map(\.id))
            }
        }
        return span
    }
}

/// One observation, run by a `ChangeNotifier` on its queue.
protocol ChangeObserver: AnyObject, Sendable {
    /// Reads the first state and reports it.
    func start(_ snapshot: Realm.Snapshot, _ reader: Realm) throws
    /// Compares with the realm as `snapshot` shows it now and reports any change; false ends the observation.
    func refresh(_ snapshot: Realm.Snapshot, _ reader: Realm, _ span: ChangeSpan) throws -> Bool
    /// Reports a failure; no call follows.
    func fail(_ error: any Error)
}

/// Hands a value to another queue. The values so handed are `Results` and models of a realm, which
/// is used from any thread.
struct Handover<T>: @unchecked Sendable {
    let value: T
}

/// Yields the change log's version whenever the notifier finds the file changed and the version moved.
final class VersionObserver: ChangeObserver, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<Int64, any Error>.Continuation
    private let token: NotificationToken
    /// The version last yielded; read and written only on the notifier's queue.
    private var last: Int64?

    init(continuation: AsyncThrowingStream<Int64, any Error>.Continuation, token: NotificationToken) {
        self.continuation = continuation
        self.token = token
    }

    func start(_ snapshot: Realm.Snapshot, _ reader: Realm) throws {
        yieldIfMoved(try snapshot.changeLogVersion())
    }

    func refresh(_ snapshot: Realm.Snapshot, _ reader: Realm, _ span: ChangeSpan) throws -> Bool {
        guard token.isActive else { return false }
        yieldIfMoved(try snapshot.changeLogVersion())
        return true
    }

    func fail(_ error: any Error) {
        continuation.finish(throwing: error)
    }

    private func yieldIfMoved(_ version: Int64) {
        guard version != last else { return }
        last = version
        continuation.yield(version)
    }
}
