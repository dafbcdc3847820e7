import Dispatch
import Synchronization

/// Runs the library's synchronous SQLite work off Swift's cooperative threads, which must never
/// wait on a lock, a disk or a client, and bounds how much of it runs at once.
///
/// Each job gets a serial queue of its own. Serial queues run on libdispatch's overcommitting
/// threads, one more whenever all are busy; a concurrent or global queue is held to about one thread
/// a core, so on two cores two imports waiting for their clients' bodies would stall every other
/// request. At most `limit` jobs run at once (`server.workers`): a request that finds them all busy
/// waits for one to end, and after `wait` seconds is answered 503 with `Retry-After`, so clients
/// that hold jobs (an export nobody reads, an import whose body stalls) cannot make the server
/// spawn threads without end or leave other requests waiting for ever.
final class BlockingWork: Sendable {
    /// How many jobs may run at once.
    let limit: Int
    /// How long a request waits for a free job before 503.
    let wait: Duration

    private struct Waiter {
        let id: Int
        let resume: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var waiters: [Waiter] = []
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// A pool of `limit` jobs, each request waiting at most `wait` for one.
    init(limit: Int, wait: Duration) {
        self.limit = limit
        self.wait = wait
    }

    /// Jobs running now, and requests waiting for one.
    var load: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.waiters.count) }
    }

    /// The result of `body`, run on a dispatch thread once a job is free.
    func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await admit()
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "kura.server.blocking").async {
                defer { self.release() }
                continuation.resume(with: Swift.Result { try body() })
            }
        }
    }

    /// Waits for a free job, then starts `body` on a dispatch thread and returns at once; the job
    /// is free again when `body` returns.
    func start(_ body: @escaping @Sendable () -> Void) async throws {
        try await admit()
        DispatchQueue(label: "kura.server.blocking").async {
            defer { self.release() }
            body()
        }
    }

    /// 503 for a request that waited `wait` without a free job.
    static let busy = Problem(
        status: 503, code: "server-busy", detail: "every worker stayed busy for longer than server.workerWait: try again",
        headers: [("Retry-After", "1")])

    /// Takes a job, waiting in line for one while all are busy: at most `wait`, then 503.
    private func admit() async throws {
        let admitted = state.withLock { state -> Bool in
            guard state.running < limit, state.waiters.isEmpty else { return false }
            state.running += 1
            return true
        }
        if admitted { return }
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let wait = self.wait
        let timer = Task { [weak self] in
            try await Task.sleep(for: wait)
            self?.giveUp(id, with: Self.busy)
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admittedNow = state.withLock { state -> Bool in
                    if state.running < limit && state.waiters.isEmpty {
                        state.running += 1
                        return true
                    }
                    state.waiters.append(Waiter(id: id, resume: continuation))
                    return false
                }
                if admittedNow { continuation.resume() }
            }
        } onCancel: {
            giveUp(id, with: CancellationError())
        }
    }

    /// Takes waiter `id` out of the line, failing it with `error`, unless it got its job already.
    private func giveUp(_ id: Int, with error: any Error) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.resume.resume(throwing: error)
    }

    /// Ends a job: its place goes to the first waiter in line, if any.
    private func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume.resume()
    }
}
