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

    /// Runs `body` and waits for its result or error.
    func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: self) {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.withLock({ $0 }) else {
            throw KuraError.store(.database, "a PostgreSQL call ended without an answer")
        }
        return try result.get()
    }
}
