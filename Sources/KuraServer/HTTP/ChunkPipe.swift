import Foundation

/// Carries bytes from a synchronous writer on a dispatch thread to an async response body, a few
/// buffers at a time: the writer waits while the client is slow, so nothing is held whole.
///
/// The writer and the reader may each stop at any moment, and the pipe outlives neither's state:
/// the count of unread chunks is plain state under a lock (a counting semaphore must be back at its
/// starting value when freed, which a client that leaves mid-stream never allows).
final class ChunkPipe: @unchecked Sendable {
    // @unchecked: every stored property but the stream's ends is guarded by `condition`.

    /// Raised in the writer when the reader went away (a client that disconnected or stopped reading).
    struct Closed: Error {}

    /// How many buffers may wait between the writer and the reader.
    private static let depth = 4

    /// The chunks, for the response body to write out.
    let chunks: AsyncThrowingStream<[UInt8], any Error>
    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    /// How long the writer waits for the reader to take a chunk before it gives up.
    private let idleTimeout: Double
    private let condition = NSCondition()
    private var unread = 0
    private var stopped = false

    /// A pipe whose writer gives up after waiting `idleTimeout` seconds for the reader.
    init(idleTimeout: Double) {
        self.idleTimeout = idleTimeout
        (chunks, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
    }

    /// Hands `bytes` to the reader, first waiting while `depth` chunks are unread; throws `Closed`
    /// once the reader stopped, or when it took nothing for `idleTimeout` seconds.
    func send(_ bytes: [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: idleTimeout)
        while unread >= Self.depth && !stopped {
            if !condition.wait(until: deadline) { stopped = true }
        }
        if stopped { throw Closed() }
        unread += 1
        continuation.yield(bytes)
    }

    /// Ends the chunks, with the writer's error if it failed.
    func finish(throwing error: (any Error)?) {
        continuation.finish(throwing: error)
    }

    /// Called by the reader for each chunk written out, letting the writer go on.
    func consumed() {
        condition.lock()
        unread -= 1
        condition.signal()
        condition.unlock()
    }

    /// Called by the reader when it stops, early or not: a waiting writer wakes and fails with `Closed`.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }
}
