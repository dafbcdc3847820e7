import Dispatch
import NIOCore
import Synchronization

/// Runs the PostgreSQL driver's asynchronous calls for a caller that waits for them, as every
/// realm call does.
///
/// The work runs as a task on threads of its own, never on Swift's shared pool: a caller blocked
/// here may itself be a task on that pool, and with every pool thread waiting, work queued on the
/// pool would never run.
final class PostgresWaiter: TaskExecutor {
    /// The one waiter every connection shares.
    static let shared = PostgresWaiter()

    private let queue = DispatchQueue(label: "kura.postgres", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `body` and waits for its result or error; when `watch` sees its connection close
    /// first, stops waiting and throws `lost` (the driver may never answer a statement sent as
    /// the connection closed).
    func wait<T: Sendable>(
        watching watch: ConnectionWatch? = nil, lost: @autoclosure @escaping @Sendable () -> KuraError = KuraError.store(.database, "the connection was lost"),
        _ body: @escaping @Sendable () async throws -> T
    ) throws -> T {
        try start(watching: watch, lost: lost(), body).wait()
    }

    /// Waits for `future`, the driver's answer to a statement, as `wait` waits for a body: no task
    /// is needed, since the driver completes the future on its own thread.
    func wait<T: Sendable>(
        for future: EventLoopFuture<T>, watching watch: ConnectionWatch, lost: @autoclosure @escaping @Sendable () -> KuraError
    ) throws -> T {
        let pending = try Pending<T>(watching: watch, lost: lost())
        future.whenComplete { pending.finish($0) }
        return try pending.wait()
    }

    /// Starts `body` and returns at once: the caller waits for its end later (`Pending.wait`).
    func start<T: Sendable>(
        watching watch: ConnectionWatch?, lost: @autoclosure @escaping @Sendable () -> KuraError, _ body: @escaping @Sendable () async throws -> T
    ) throws -> Pending<T> {
        let pending = try Pending<T>(watching: watch, lost: lost())
        Task(executorPreference: self) {
            do { pending.finish(.success(try await body())) } catch { pending.finish(.failure(error)) }
        }
        return pending
    }

    /// Work started by `start`, whose end one caller waits for.
    final class Pending<T: Sendable>: Sendable {
        private let outcome = Mutex<Result<T, any Error>?>(nil)
        private let done = DispatchSemaphore(value: 0)
        private let watch: ConnectionWatch?
        /// The wait's registration with `watch`, set before the work starts.
        private let registration = Mutex<Int?>(nil)

        /// A wait that `watch`'s closing fails with `lost`; throws `lost` when it has closed already.
        fileprivate init(watching watch: ConnectionWatch?, lost: @autoclosure @escaping @Sendable () -> KuraError) throws {
            self.watch = watch
            guard let watch else { return }
            // The error is made only when the connection closes: making it names the realm, which
            // would otherwise cost every statement a URL's worth of text.
            guard let id = watch.register({ [self] in finish(.failure(lost())) }) else { throw lost() }
            registration.withLock { $0 = id }
        }

        fileprivate func finish(_ result: Result<T, any Error>) {
            let first = outcome.withLock { stored in
                guard stored == nil else { return false }
                stored = result
                return true
            }
            if first { done.signal() }
        }

        /// Waits for the work's end: its result, or its error.
        func wait() throws -> T {
            done.wait()
            if let id = registration.withLock({ $0 }) { watch?.unregister(id) }
            guard let result = outcome.withLock({ $0 }) else {
                throw KuraError.store(.database, "a PostgreSQL call ended without an answer")
            }
            return try result.get()
        }
    }
}

/// Whether a connection has closed, and who is waiting on it: each wait registers what fails it,
/// and the connection's closing fails them all.
final class ConnectionWatch: Sendable {
    private struct State {
        var closed = false
        var next = 0
        var waiting: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Records that the connection closed and fails every wait on it.
    func closed() {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for fail in waiting { fail() }
    }

    /// Registers a wait; `nil` when the connection has closed already.
    func register(_ fail: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard !state.closed else { return nil }
            state.next += 1
            state.waiting[state.next] = fail
            return state.next
        }
    }

    func unregister(_ id: Int) {
        _ = state.withLock { $0.waiting.removeValue(forKey: id) }
    }
}
