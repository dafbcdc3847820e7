import Foundation

/// Carries a request body from its async sequence of buffers to a synchronous reader on a dispatch
/// thread, a few buffers at a time: the body is read only as fast as it is parsed, never held whole.
///
/// A reader that waits for bytes gives up once the client has sent nothing for `idleTimeout`
/// seconds while the pipe had room for more (`timedOut` then tells the route to answer 408).
final class BodyPipe: @unchecked Sendable {
    /// Raised in the reader when the body broke off (the client went away) or grew past its limit.
    struct Broken: Error, CustomStringConvertible {
        let description: String
    }

    /// How many buffers may wait between the body and the reader.
    private static let depth = 4

    private let condition = NSCondition()
    private var buffers: [[UInt8]] = []
    private var current: [UInt8] = []
    private var currentOffset = 0
    private var ended = false
    private var failure: Broken?
    private var closed = false
    private var isTimedOut = false
    /// The last time the body gave bytes or the reader made room for more: idleness counts from it,
    /// so time spent waiting for the reader is never the client's.
    private var lastActivity = Date()
    private let idleTimeout: Double

    /// A pipe whose reader gives up after `idleTimeout` seconds without bytes.
    init(idleTimeout: Double) {
        self.idleTimeout = idleTimeout
    }

    /// Whether the reader gave up because the body sent nothing for `idleTimeout` seconds.
    var timedOut: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isTimedOut
    }
    /// A body task waiting for room, with the buffer it brings.
    private var waitingPush: (bytes: [UInt8], resume: CheckedContinuation<Bool, Never>)?

    /// Hands `bytes` to the reader, waiting while `depth` buffers are unread; false once the reader stopped.
    func push(_ bytes: [UInt8]) async -> Bool {
        await withCheckedContinuation { continuation in
            condition.lock()
            if closed {
                condition.unlock()
                continuation.resume(returning: false)
            } else if buffers.count < Self.depth {
                buffers.append(bytes)
                lastActivity = Date()
                condition.signal()
                condition.unlock()
                continuation.resume(returning: true)
            } else {
                waitingPush = (bytes, continuation)
                condition.unlock()
            }
        }
    }

    /// Ends the body: normally, or broken with `failure` (then the reader fails).
    func finish(failure: Broken? = nil) {
        condition.lock()
        ended = true
        self.failure = failure
        condition.signal()
        condition.unlock()
    }

    /// Called when the reader is done, early or not: a waiting body task wakes, and no more is taken.
    func close() {
        condition.lock()
        closed = true
        let waiting = waitingPush
        waitingPush = nil
        buffers.removeAll()
        condition.unlock()
        waiting?.resume.resume(returning: false)
    }

    /// Fills `target` with the next bytes, waiting for them; 0 at the end of the body.
    func read(into target: UnsafeMutableRawBufferPointer) throws -> Int {
        condition.lock()
        while currentOffset == current.count {
            if !buffers.isEmpty {
                current = buffers.removeFirst()
                currentOffset = 0
                lastActivity = Date()
                if let waiting = waitingPush {
                    waitingPush = nil
                    buffers.append(waiting.bytes)
                    condition.unlock()
                    waiting.resume.resume(returning: true)
                    condition.lock()
                }
                continue
            }
            if ended {
                condition.unlock()
                if let failure { throw failure }
                return 0
            }
            if !condition.wait(until: lastActivity.addingTimeInterval(idleTimeout)),
                Date().timeIntervalSince(lastActivity) >= idleTimeout, buffers.isEmpty, !ended
            {
                isTimedOut = true
                ended = true
                failure = Broken(description: "the body sent nothing for \(Self.seconds(idleTimeout)) (server.bodyIdleTimeout)")
            }
        }
        let count = min(target.count, current.count - currentOffset)
        current.withUnsafeBytes { source in
            target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[currentOffset..<currentOffset + count]))
        }
        currentOffset += count
        condition.unlock()
        return count
    }

    /// `seconds` as a message says it: `15 s`, `0.5 s`.
    static func seconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
