import Dispatch
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
        watching watch: ConnectionWatch? = nil, lost: @autoclosure () -> KuraError = KuraError.store(.database, "the connection was lost"),
        _ body: @escaping @Sendable () async throws -> T
    ) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let finish: @Sendable (Result<T, any Error>) -> Void = { result in
            let first = outcome.withLock { stored in
                guard stored == nil else { return false }
                stored = result
                return true
            }
            if first { done.signal() }
        }
        var registration: Int?
        if let watch {
            let lost = lost()
            guard let id = watch.register({ finish(.failure(lost)) }) else { throw lost }
            registration = id
        }
        defer { if let registration { watch?.unregister(registration) } }
        Task(executorPreference: self) {
            do { finish(.success(try await body())) } catch { finish(.failure(error)) }
        }
        done.wait()
        guard let result = outcome.withLock({ $0 }) else {
            throw KuraError.store(.database, "a PostgreSQL call ended without an answer")
        }
        return try result.get()
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
