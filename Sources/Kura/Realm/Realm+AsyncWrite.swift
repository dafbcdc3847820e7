import Foundation

extension Realm {
    /// Runs `block` in one write transaction, as `write` does, but on the realm file's writer queue
    /// instead of the calling thread; returns what the block returns, or throws what it throws.
    ///
    /// The caller's thread (the main actor's included) is never blocked: waiting for the write lock,
    /// while another task, thread or process writes, happens on the writer queue. The asynchronous
    /// writes of every handle on one file run one after another, in the order they were asked for.
    /// The block gets this realm, runs synchronously on one thread and may call any realm method,
    /// `add` and `delete` included. A task cancelled before its write starts throws
    /// `CancellationError` and writes nothing; once started, the write runs to its end.
    ///
    /// A realm file's asynchronous writes go through a second connection of this handle, opened on
    /// the first of them: while one waits for the lock or writes, reads of this handle (from the
    /// main actor, say) go on, as reads of other connections do. A realm in memory has one
    /// connection, which its reads then wait for.
    @discardableResult
    public func asyncWrite<T: Sendable>(_ block: @escaping @Sendable (Realm) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let start = PendingWrite()
        let queue = writerQueue
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                queue.async {
                    guard start.begin() else {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    do {
                        continuation.resume(returning: try self.writeThroughAsyncWriter(block))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            start.cancel()
        }
    }
}

extension Realm {
    /// Runs `block` with this realm in a write transaction of the handle asynchronous writes use:
    /// on the calling thread this handle works through that transaction meanwhile, so the objects
    /// the block makes belong to this handle.
    fileprivate func writeThroughAsyncWriter<T>(_ block: (Realm) throws -> T) throws -> T {
        let writer = try asyncWriter()
        guard writer !== self else { return try write { try block(self) } }
        defer { state.committed() }
        return try writer.write {
            // The transaction took up any schema another process stored since this handle read it.
            let current = writer.catalog
            if current.schema != catalog.schema { catalog = current }
            transaction = writer.transaction
            defer { transaction = nil }
            return try block(self)
        }
    }

    /// The second handle of a realm file that asynchronous writes go through (opened on first use,
    /// only ever from the file's writer queue, so never twice at once), or this handle in memory or
    /// read-only, where no second connection can write.
    private func asyncWriter() throws -> Realm {
        if configuration.isInMemory || configuration.readOnly { return self }
        if let writer = state.asyncWriter { return writer }
        let sharing = Configuration(path: configuration.path, busyTimeout: configuration.busyTimeout)
        let writer = try Realm(configuration: sharing, migrating: false, identities: identities)
        state.asyncWriter = writer
        return writer
    }
}

/// Whether a queued asynchronous write may still start: a cancellation that comes first stops it.
///
/// `@unchecked Sendable`: its one field is read and set under `lock`, by the cancelling task and the
/// writer queue.
final class PendingWrite: @unchecked Sendable {
    private let lock = NSLock()
    private var state = State.waiting

    private enum State { case waiting, started, cancelled }

    /// Marks the write started; `false` when it was cancelled first.
    func begin() -> Bool {
        lock.withLock {
            guard state == .waiting else { return false }
            state = .started
            return true
        }
    }

    /// Cancels the write unless it has started.
    func cancel() {
        lock.withLock {
            if state == .waiting { state = .cancelled }
        }
    }
}

/// The serial queues `asyncWrite` runs on: one per realm file (and per named in-memory realm), shared
/// by every handle on it in this process, so that their writes queue here rather than each hold a
/// thread waiting for SQLite's lock. A private `:memory:` realm has a queue of its own.
///
/// `@unchecked Sendable`: the table is read and changed only under `lock`. Queues are kept for the
/// life of the process: one is a few hundred bytes, and a file's writes must keep one order.
final class WriterQueues: @unchecked Sendable {
    static let shared = WriterQueues()

    private let lock = NSLock()
    private var queues: [String: DispatchQueue] = [:]

    /// The queue for the realm `configuration` opens.
    func queue(for configuration: Realm.Configuration) -> DispatchQueue {
        guard let key = configuration.sharedName else { return Self.makeQueue(":memory:") }
        return lock.withLock {
            if let queue = queues[key] { return queue }
            let queue = Self.makeQueue(key)
            queues[key] = queue
            return queue
        }
    }

    private static func makeQueue(_ key: String) -> DispatchQueue {
        DispatchQueue(label: "Kura.asyncWrite \(key)", qos: .userInitiated)
    }
}
