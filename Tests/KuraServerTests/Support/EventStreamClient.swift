import Foundation

/// A server-sent event stream read by `curl -N` as it arrives, for the `/changes` tests.
final class EventStreamClient: @unchecked Sendable {
    /// One event: its `event`, `id` and `data` fields.
    struct Event: Equatable, CustomStringConvertible {
        var event = ""
        var id = ""
        var data = ""
        var description: String { "\(event) \(id) \(data)" }
    }

    private let process = Process()
    private let lock = NSLock()
    private var received = Data()

    /// Starts reading `url` with `headers`.
    init(_ url: String, headers: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        var arguments = ["-N", "-s", "-i"]
        for (field, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(field): \(value)"] }
        process.arguments = arguments + [url]
        let pipe = Pipe()
        process.standardOutput = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.lock()
            self.received.append(data)
            self.lock.unlock()
        }
        try process.run()
    }

    deinit { stop() }

    /// Everything read so far, headers included.
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: received, as: UTF8.self)
    }

    /// The body read so far (after the response head).
    var body: String {
        let text = self.text
        guard let end = text.range(of: "\r\n\r\n") else { return "" }
        return String(text[end.upperBound...])
    }

    /// The response head: the status line and headers.
    var head: String {
        let text = self.text
        guard let end = text.range(of: "\r\n\r\n") else { return "" }
        return String(text[..<end.lowerBound])
    }

    /// The complete events read so far, comments left out.
    var events: [Event] {
        var events: [Event] = []
        for block in body.components(separatedBy: "\n\n").dropLast() {
            var event = Event()
            var isEvent = false
            for line in block.split(separator: "\n") where !line.hasPrefix(":") {
                isEvent = true
                if line.hasPrefix("event: ") { event.event = String(line.dropFirst(7)) }
                if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { event.data = String(line.dropFirst(6)) }
            }
            if isEvent { events.append(event) }
        }
        return events
    }

    /// Waits up to `timeout` seconds until `condition` holds; whether it did.
    @discardableResult
    func wait(timeout: TimeInterval = 10, until condition: (EventStreamClient) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition(self)
    }

    /// Waits until at least `count` events arrived (or `timeout` passed) and returns the events.
    func events(count: Int, timeout: TimeInterval = 10) -> [Event] {
        wait(timeout: timeout) { $0.events.count >= count }
        return events
    }

    /// Waits for the stream's opening comment and returns the version it starts after.
    func startVersion(timeout: TimeInterval = 10) -> Int? {
        wait(timeout: timeout) { $0.body.contains(" after version ") && $0.body.contains("\n\n") }
        guard let range = body.range(of: " after version "), let end = body[range.upperBound...].firstIndex(of: "\n") else { return nil }
        return Int(body[range.upperBound..<end])
    }

    /// Whether curl is still reading.
    var isRunning: Bool { process.isRunning }

    /// Stops reading (the client goes away).
    func stop() {
        guard process.isRunning else { return }
        // SIGKILL: curl inherits the test process's blocked signals, SIGTERM among them.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
