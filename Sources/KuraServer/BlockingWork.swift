import Dispatch

/// Runs the library's synchronous SQLite work off Swift's cooperative threads, which must never
/// wait on a lock, a disk or a client.
///
/// Each job gets a serial queue of its own. Serial queues run on libdispatch's overcommitting
/// threads, one more whenever all are busy; a concurrent or global queue is held to about one thread
/// a core, so on two cores two imports waiting for their clients' bodies would stall every other
/// request.
enum BlockingWork {
    /// The result of `body`, run on a dispatch thread.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            start { continuation.resume(with: Swift.Result { try body() }) }
        }
    }

    /// Starts `body` on a dispatch thread and returns at once.
    static func start(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue(label: "kura.server.blocking").async(execute: body)
    }
}
