import Foundation
import Kura
import NIOCore

extension KuraClient {
    /// The realm's commits as they happen: every commit after `version` first (none without one),
    /// then each new one, until the loop stops or the server goes away.
    ///
    /// When the realm no longer keeps the commits after `version`, the sequence throws a
    /// `.store(.changesPruned)` error: read everything again, then follow from now.
    public func changes(after version: Int64? = nil) -> AsyncThrowingStream<ServedChange, any Error> {
        let (changes, continuation) = AsyncThrowingStream.makeStream(of: ServedChange.self)
        let follow = Task {
            do {
                var headers = [("Accept", "text/event-stream")]
                if let version { headers.append(("Last-Event-ID", String(version))) }
                let response = try await send(request("/changes", headers: headers), file: nil)
                var events = EventStreamParser()
                do {
                    for try await chunk in response.body {
                        for event in events.feed(chunk.readableBytesView) { try deliver(event, to: continuation) }
                    }
                } catch let error as KuraError {
                    throw error
                } catch is CancellationError {
                    return continuation.finish()
                } catch {
                    throw lost(error)
                }
                for event in events.finish() { try deliver(event, to: continuation) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in follow.cancel() }
        return changes
    }

    private func deliver(_ event: EventStreamParser.Event, to continuation: AsyncThrowingStream<ServedChange, any Error>.Continuation) throws {
        switch event.name {
        case "change":
            continuation.yield(try ServedChange(eventData: event.data, realm: realm))
        case "pruned":
            let problem = ServerProblem(status: 410, body: Array(event.data.utf8))
            throw problem?.error(realm: realm, file: nil)
                ?? KuraError(.store(.changesPruned), "realm '\(realm)' no longer keeps the changes asked for")
        default:
            break
        }
    }
}

/// Server-sent events read from a byte stream: `event:` and `data:` lines up to a blank line;
/// comments (`:` lines, the keep-alives) and other fields are skipped.
struct EventStreamParser {
    struct Event {
        var name = "message"
        var data = ""
    }

    private var line: [UInt8] = []
    private var pending = Event()
    private var hasData = false

    /// The events that `bytes` completes.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                line.append(byte)
                continue
            }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if let event = take(line) { events.append(event) }
            line.removeAll(keepingCapacity: true)
        }
        return events
    }

    /// The event the stream's end completes, if one was under way.
    mutating func finish() -> [Event] {
        var events: [Event] = []
        if !line.isEmpty, let event = take(line) { events.append(event) }
        if let event = take([]) { events.append(event) }
        return events
    }

    /// Reads one line; a blank one ends the pending event.
    private mutating func take(_ line: [UInt8]) -> Event? {
        guard !line.isEmpty else {
            defer { pending = Event(); hasData = false }
            return hasData ? pending : nil
        }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let (field, value) = text.firstIndex(of: ":").map { colon in
            (String(text[..<colon]), String(text[text.index(after: colon)...]).droppingLeadingSpace)
        } ?? (text, "")
        switch field {
        case "event": pending.name = value
        case "data":
            pending.data += hasData ? "\n" + value : value
            hasData = true
        default: break
        }
        return nil
    }
}

private extension String {
    var droppingLeadingSpace: String { hasPrefix(" ") ? String(dropFirst()) : self }
}
