import Dispatch
import NIOCore
import Synchronization

/// Bytes made on a thread of their own (an export, which blocks) handed to a request body read
/// asynchronously: at most `capacity` chunks wait, so a fast maker waits for a slow network
/// instead of holding the whole stream.
final class ChunkChannel: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    private struct State {
        var chunks: [[UInt8]] = []
        var ended = false
        var failure: (any Error)?
        var cancelled = false
        var waiting: CheckedContinuation<ByteBuffer?, any Error>?
    }

    private let state = Mutex(State())
    private let slots: DispatchSemaphore

    init(capacity: Int = 8) {
        slots = DispatchSemaphore(value: capacity)
    }

    /// Hands `bytes` on, waiting while `capacity` chunks wait already; throws `Cancelled` once
    /// the reader has gone.
    func send(_ bytes: [UInt8]) throws {
        while slots.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            if state.withLock({ $0.cancelled }) { throw Cancelled() }
        }
        let waiting = try state.withLock { state -> CheckedContinuation<ByteBuffer?, any Error>? in
            guard !state.cancelled else { throw Cancelled() }
            if let waiting = state.waiting {
                state.waiting = nil
                return waiting
            }
            state.chunks.append(bytes)
            return nil
        }
        if let waiting {
            slots.signal()
            waiting.resume(returning: ByteBuffer(bytes: bytes))
        }
    }

    /// Ends the stream, with `error` when the maker failed.
    func finish(throwing error: (any Error)? = nil) {
        let waiting = state.withLock { state in
            state.ended = true
            state.failure = error
            defer { state.waiting = nil }
            return state.waiting
        }
        if let error { waiting?.resume(throwing: error) } else { waiting?.resume(returning: nil) }
    }

    /// Tells the maker the reader has gone: its next `send` throws.
    func cancel() {
        state.withLock { $0.cancelled = true }
    }

    private func next() async throws -> ByteBuffer? {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = state.withLock { state -> Result<ByteBuffer?, any Error>? in
                if !state.chunks.isEmpty { return .success(ByteBuffer(bytes: state.chunks.removeFirst())) }
                if state.ended { return state.failure.map { .failure($0) } ?? .success(nil) }
                state.waiting = continuation
                return nil
            }
            guard let outcome else { return }
            if case .success(let chunk) = outcome, chunk != nil { slots.signal() }
            continuation.resume(with: outcome)
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(channel: self) }

    struct Iterator: AsyncIteratorProtocol {
        let channel: ChunkChannel
        mutating func next() async throws -> ByteBuffer? { try await channel.next() }
    }

    /// The reader has gone.
    struct Cancelled: Error {}
}
