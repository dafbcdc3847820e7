import Dispatch

/// Runs the library's synchronous SQLite work off Swift's cooperative threads, which must never
/// wait on a lock or a disk.
enum BlockingWork {
    private static let queue = DispatchQueue(label: "kura.server.blocking", attributes: .concurrent)

    /// The result of `body`, run on a dispatch thread.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Swift.Result { try body() }) }
        }
    }
}
