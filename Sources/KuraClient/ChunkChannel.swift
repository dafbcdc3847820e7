import Dispatch
import NIOCore
import Synchronization

/// Pieces of a byte stream handed from the side that makes them to the side that takes them,
/// where either side may block a thread of its own (an export or import of a realm on this
/// machine) or run as an async task (a request to a server). At most `capacity` pieces wait, so a
/// fast maker waits for a slow taker instead of holding the whole stream.
///
/// One maker and one taker: the maker calls ``send(_:)`` or ``put(_:)`` and ends with
/// ``finish(throwing:)``; the taker calls ``take(tick:)`` or iterates, and calls ``cancel()`` when
/// it stops early, which makes the maker's next hand-off throw ``Cancelled``.
public final class ChunkChannel: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer

    /// The taker has gone: what a hand-off throws after ``cancel()``.
    public struct Cancelled: Error {}

    private struct State {
        var chunks: [ByteBuffer] = []
        var end: Result<Void, any Error>?
        var cancelled = false
        /// A blocked thread to wake: the taker waiting for a piece, the maker for room.
        var takerBlocked = false
        var makerBlocked = false
        /// An async side to resume instead.
        var waitingTaker: CheckedContinuation<ByteBuffer?, any Error>?
        var waitingMaker: CheckedContinuation<Void, any Error>?
    }

    private let state = Mutex(State())
    private let pieceArrived = DispatchSemaphore(value: 0)
    private let roomMade = DispatchSemaphore(value: 0)
    private let capacity: Int

    /// A channel holding at most `capacity` pieces not yet taken.
    public init(capacity: Int = 8) {
        self.capacity = Swift.max(1, capacity)
    }

    // MARK: The maker's side

    /// Hands `bytes` on from a thread that may block, waiting while the channel is full.
    public func send(_ bytes: [UInt8]) throws {
        let chunk = ByteBuffer(bytes: bytes)
        while true {
            let handed = try state.withLock { state throws -> Bool in
                guard !state.cancelled else { throw Cancelled() }
                guard state.chunks.count < capacity else {
                    state.makerBlocked = true
                    return false
                }
                deliver(chunk, &state)
                return true
            }
            if handed { return }
            // Looked at again every so often: a cancel wakes no one.
            _ = roomMade.wait(timeout: .now() + .milliseconds(200))
        }
    }

    /// Hands `chunk` on from an async task, suspending while the channel is full.
    public func put(_ chunk: ByteBuffer) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = state.withLock { state -> Result<Void, any Error>? in
                guard !state.cancelled else { return .failure(Cancelled()) }
                deliver(chunk, &state)
                guard state.chunks.count <= capacity else {
                    state.waitingMaker = continuation
                    return nil
                }
                return .success(())
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    /// Ends the stream: the taker sees its end after the pieces, or `error` when the maker failed.
    public func finish(throwing error: (any Error)? = nil) {
        let taker = state.withLock { state -> CheckedContinuation<ByteBuffer?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = error.map { .failure($0) } ?? .success(())
            wakeTaker(&state)
            guard state.chunks.isEmpty else { return nil }
            defer { state.waitingTaker = nil }
            return state.waitingTaker
        }
        if let error { taker?.resume(throwing: error) } else { taker?.resume(returning: nil) }
    }

    /// Gives `chunk` to an async taker waiting for it, or queues it; under the lock.
    private func deliver(_ chunk: ByteBuffer, _ state: inout State) {
        if let taker = state.waitingTaker {
            state.waitingTaker = nil
            taker.resume(returning: chunk)
            return
        }
        state.chunks.append(chunk)
        wakeTaker(&state)
    }

    private func wakeTaker(_ state: inout State) {
        if state.takerBlocked {
            state.takerBlocked = false
            pieceArrived.signal()
        }
    }

    // MARK: The taker's side

    /// The next piece, blocking this thread until it comes; `nil` at the end; throws the maker's
    /// error. `tick` runs on this thread every fifth of a second meanwhile (to redraw progress).
    public func take(tick: () -> Void = {}) throws -> ByteBuffer? {
        while true {
            let outcome = state.withLock { state -> Result<ByteBuffer?, any Error>? in
                if let chunk = taken(&state) { return .success(chunk) }
                if let end = state.end { return end.map { nil } }
                state.takerBlocked = true
                return nil
            }
            if let outcome { return try outcome.get() }
            if pieceArrived.wait(timeout: .now() + .milliseconds(200)) == .timedOut { tick() }
        }
    }

    /// Whether the taker has gone.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Tells the maker the taker has gone: its next hand-off throws ``Cancelled``.
    public func cancel() {
        let maker = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.cancelled = true
            state.chunks.removeAll()
            defer { state.waitingMaker = nil }
            return state.waitingMaker
        }
        maker?.resume(throwing: Cancelled())
    }

    /// The first waiting piece, making room for the maker; under the lock.
    private func taken(_ state: inout State) -> ByteBuffer? {
        guard !state.chunks.isEmpty else { return nil }
        let chunk = state.chunks.removeFirst()
        if state.makerBlocked {
            state.makerBlocked = false
            roomMade.signal()
        }
        if let maker = state.waitingMaker, state.chunks.count <= capacity {
            state.waitingMaker = nil
            maker.resume()
        }
        return chunk
    }

    private func next() async throws -> ByteBuffer? {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = state.withLock { state -> Result<ByteBuffer?, any Error>? in
                if let chunk = taken(&state) { return .success(chunk) }
                if let end = state.end { return end.map { nil } }
                state.waitingTaker = continuation
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    public func makeAsyncIterator() -> Iterator { Iterator(channel: self) }

    /// Takes the pieces as they come, suspending while none waits.
    public struct Iterator: AsyncIteratorProtocol {
        let channel: ChunkChannel

        public mutating func next() async throws -> ByteBuffer? { try await channel.next() }
    }
}
