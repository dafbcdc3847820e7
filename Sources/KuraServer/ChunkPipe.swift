import Dispatch
import Foundation

/// Carries bytes from a synchronous writer on a dispatch thread to an async response body, a few
/// buffers at a time: the writer waits while the client is slow, so nothing is held whole.
final class ChunkPipe: @unchecked Sendable {
    /// Raised in the writer when the reader went away (a client that disconnected).
    struct Closed: Error {}

    /// How many buffers may wait between the writer and the reader.
    private static let depth = 4

    /// The chunks, for the response body to write out.
    let chunks: AsyncThrowingStream<[UInt8], any Error>
    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private let credits = DispatchSemaphore(value: ChunkPipe.depth)
    private let lock = NSLock()
    private var stopped = false

    init() {
        (chunks, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
    }

    /// Hands `bytes` to the reader, first waiting while `depth` chunks are unread; throws `Closed` once the reader stopped.
    func send(_ bytes: [UInt8]) throws {
        if isStopped { throw Closed() }
        credits.wait()
        if isStopped { throw Closed() }
        continuation.yield(bytes)
    }

    /// Ends the chunks, with the writer's error if it failed.
    func finish(throwing error: (any Error)?) {
        continuation.finish(throwing: error)
    }

    /// Called by the reader for each chunk written out, letting the writer go on.
    func consumed() { credits.signal() }

    /// Called by the reader when it stops, early or not: a waiting writer wakes and fails with `Closed`.
    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        credits.signal()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }
}
