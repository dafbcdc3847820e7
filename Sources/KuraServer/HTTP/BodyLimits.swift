import Hummingbird
import Synchronization

/// How much of a request body a route other than import reads, and how long it waits for it.
struct BodyLimits: Sendable {
    /// The most bytes a body may hold (`server.maxOtherBodyBytes`).
    let maxBytes: Int
    /// Seconds a body may send nothing before the request is answered 408 (`server.bodyIdleTimeout`).
    let idleTimeout: Double

    /// The whole body of `request`: 413 before anything is read when `Content-Length` says more
    /// than `maxBytes`, else as soon as the body grows past it; 408 once it has sent nothing for
    /// `idleTimeout` seconds.
    func collect(_ request: Request) async throws -> ByteBuffer {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
            throw tooLarge
        }
        let body = request.body
        let maxBytes = self.maxBytes
        let tooLarge = self.tooLarge
        let lastArrival = Arrivals()
        let idle = Duration.milliseconds(Int64(idleTimeout * 1000))
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                var collected = ByteBuffer()
                for try await part in body {
                    lastArrival.note()
                    guard collected.readableBytes + part.readableBytes <= maxBytes else { throw tooLarge }
                    collected.writeImmutableBuffer(part)
                }
                return collected
            }
            // The watch ends the wait for a body that stalls: cancelling the reading task ends its wait.
            group.addTask {
                while true {
                    let deadline = lastArrival.last + idle
                    if ContinuousClock.now >= deadline { throw Self.idle(idle) }
                    try await Task.sleep(until: deadline)
                }
            }
            defer { group.cancelAll() }
            while let finished = try await group.next() {
                if let body = finished { return body }
            }
            return ByteBuffer()
        }
    }

    /// 413 for a body over `maxBytes`.
    var tooLarge: Problem {
        Problem(status: 413, code: "body-too-large", detail: "this body may hold at most \(maxBytes) bytes (only an import's may be larger)")
    }

    private static func idle(_ idle: Duration) -> Problem {
        let seconds = Double(idle.components.seconds) + Double(idle.components.attoseconds) / 1e18
        return Problem(status: 408, code: "body-idle", detail: "the body sent nothing for \(BodyPipe.seconds(seconds)) (server.bodyIdleTimeout)")
    }

    /// When the body last gave bytes, shared by the task that reads it and the one that watches it.
    private final class Arrivals: Sendable {
        private let time = Mutex(ContinuousClock.now)

        var last: ContinuousClock.Instant { time.withLock { $0 } }

        func note() { time.withLock { $0 = .now } }
    }
}
