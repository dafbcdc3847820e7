import Foundation

extension Results {
    /// Observes the results: `block` gets `.initial` with the results as they are, then `.update`
    /// after every commit that changed them, from this realm, another `Realm` of the file or another
    /// process (within a second), until the token is invalidated. Several commits between two looks
    /// at the file come as one update; a commit that left the results as they were brings none.
    ///
    /// `block` runs on `queue` (give a serial one), or, without one, on the serial queue of the
    /// realm file's notifier; one call at a time, in commit order. The results it gets hold the
    /// objects the change describes, in that order, so that its indexes fit them; their values are
    /// read through this realm when used, and reading one deleted since throws `.objectDeleted`.
    /// Refining them (`filter`, `sorted`) gives live results again.
    ///
    /// Modifications are objects of the results' type that a commit changed itself (a property, or
    /// the contents of a list, set or map), not objects they link to.
    public func observe(
        on queue: DispatchQueue? = nil, _ block: @escaping @Sendable (RealmCollectionChange<Results<Element>>) -> Void
    ) -> NotificationToken {
        let token = NotificationToken()
        let observer = ResultsObserver(results: self, token: token) { change in
            let handed = Handover(value: change)
            if let queue {
                queue.async { if token.isActive { block(handed.value) } }
            } else if token.isActive {
                block(handed.value)
            }
        }
        do {
            try ChangeNotifier.notifier(for: realm).add(observer, token: token)
        } catch {
            observer.fail(error)
        }
        return token
    }

    /// The changes of `observe(on:_:)` as an asynchronous sequence: `.initial` first, then an
    /// `.update` per look at the file that found the results changed. A failure ends it by throwing
    /// the error. Observing stops when the iteration ends or its task is cancelled.
    public var changes: AsyncThrowingStream<RealmCollectionChange<Results<Element>>, any Error> {
        let (stream, continuation) = AsyncThrowingStream<RealmCollectionChange<Results<Element>>, any Error>.makeStream(
            bufferingPolicy: .unbounded)
        let token = observe { change in
            let handed = Handover(value: change)
            if case .error(let error) = handed.value {
                continuation.finish(throwing: error)
            } else {
                continuation.yield(handed.value)
            }
        }
        continuation.onTermination = { _ in token.invalidate() }
        return stream
    }
}

/// Runs one `Results.observe`: keeps the ids the results held at the last look and compares.
final class ResultsObserver<Element>: ChangeObserver, @unchecked Sendable {
    private let results: Results<Element>
    private let token: NotificationToken
    private let deliver: (RealmCollectionChange<Results<Element>>) -> Void
    private var ids: [Int64] = []

    init(results: Results<Element>, token: NotificationToken, deliver: @escaping (RealmCollectionChange<Results<Element>>) -> Void) {
        self.results = results
        self.token = token
        self.deliver = deliver
    }

    func start(_ snapshot: Realm.Snapshot, _ reader: Realm) throws {
        ids = try snapshot.ids(matching: results.query)
        deliver(.initial(results.pinned(to: ids)))
    }

    func refresh(_ snapshot: Realm.Snapshot, _ reader: Realm, _ span: ChangeSpan) throws -> Bool {
        guard token.isActive else { return false }
        let now = try snapshot.ids(matching: results.query)
        let modified = span.complete ? span.modified[results.typeName] ?? [] : Set(now)
        let diff = CollectionDiff(old: ids, new: now, modified: modified)
        ids = now
        if !diff.isEmpty {
            deliver(.update(
                results.pinned(to: now), deletions: diff.deletions, insertions: diff.insertions, modifications: diff.modifications))
        }
        return true
    }

    func fail(_ error: any Error) {
        deliver(.error(error))
    }
}
