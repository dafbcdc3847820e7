import Foundation
import Synchronization

/// A change to observed `Results`, as Realm reports it.
public enum RealmCollectionChange<CollectionType> {
    /// The results as they were when observing began.
    case initial(CollectionType)
    /// The results after one or more commits: `deletions` are indexes in the previous results,
    /// `insertions` and `modifications` indexes in these. An object whose position a sort changed
    /// is a deletion and an insertion; a modified object is one a commit changed (a property, or the
    /// contents of a list, set or map) that kept its position.
    case update(CollectionType, deletions: [Int], insertions: [Int], modifications: [Int])
    /// Observing failed (the query no longer fits the schema, or the realm cannot be read); no
    /// change follows.
    case error(any Error)
}

/// A change to an observed object.
public enum ObjectChange<T> {
    /// The object changed: the object as it is now, and the properties that changed.
    case change(T, [PropertyChange])
    /// The object was deleted; no change follows.
    case deleted
    /// Observing failed; no change follows.
    case error(any Error)
}

/// One property of an observed object that a commit changed.
public struct PropertyChange: Sendable, Equatable {
    /// The property's name.
    public var name: String
    /// Its value before the change.
    public var oldValue: Value?
    /// Its value after the change.
    public var newValue: Value?

    /// Makes a property change.
    public init(name: String, oldValue: Value?, newValue: Value?) {
        self.name = name
        self.oldValue = oldValue
        self.newValue = newValue
    }
}

/// Keeps an observation going until `invalidate()` is called: Realm's notification token.
///
/// Dropping the token does not end the observation; invalidate it (or the realm file's last
/// observer going away stops the file's poller).
public final class NotificationToken: Sendable {
    private let state = Mutex<(active: Bool, stop: (@Sendable () -> Void)?)>((true, nil))

    init() {}

    /// Ends the observation: no callback starts after this returns.
    public func invalidate() {
        let stop = state.withLock { state -> (@Sendable () -> Void)? in
            state.active = false
            defer { state.stop = nil }
            return state.stop
        }
        stop?()
    }

    /// Whether the observation still goes on.
    public var isActive: Bool { state.withLock { $0.active } }

    /// Sets what ends the observation; runs it at once when the token was already invalidated.
    func onInvalidate(_ stop: @escaping @Sendable () -> Void) {
        let already = state.withLock { state -> Bool in
            if state.active { state.stop = stop }
            return !state.active
        }
        if already { stop() }
    }
}
