import Foundation
import HTTPTypes
import Hummingbird
import Kura
import Logging
import ServiceLifecycle

/// `GET /v1/realms/{realm}/changes`: the realm's commits as server-sent events (see `ChangeEvents`),
/// from this server and any other process, live and resumable.
///
/// Without `Last-Event-ID` the stream starts from now; with `Last-Event-ID: V` it first sends every
/// commit after V, then the live ones, each once and in order. A V older than the change log keeps
/// is answered 410 `changes-pruned` (read everything again, then follow from now); a V after the
/// realm's latest version, or one that is not a whole number, 400. A stream that falls that far
/// behind while open ends with a `pruned` event carrying the same problem. Every stream starts with
/// a comment naming its starting version and sends a keep-alive comment when the feed asks; it ends
/// when the client goes away or the server shuts down, or, with `follow=false`, once the commits
/// already made are sent (a poll rather than a stream).
struct ChangesRoute: RouteSet {
    let realms: ServedRealms
    let feeds: ChangeFeeds
    let logger: Logger

    /// How many commits one read of the log turns into events.
    private static let batch = 100

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.get("realms/:realm/changes") { request, context in
            let name = try context.realm()
            let resumeText = HTTPField.Name("Last-Event-ID").flatMap { request.headers[$0] }
            let follows = try QueryParameters(request).text("follow").map { text throws(Problem) in
                guard let follows = Bool(text) else { throw Problem.badParameter("follow '\(MessageText.shown(text))' is not true or false") }
                return follows
            } ?? true
            let realms = self.realms
            let start = try await realms.work.run { try realms.reading(name) { try Self.startingVersion($0, resumeText: resumeText) } }
            let feeds = self.feeds
            let logger = self.logger
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                let (id, signals) = feeds.listen(to: name)
                defer { feeds.stopListening(to: name, id: id) }
                do {
                    // Shutdown ends the stream at once rather than after shutdownGrace.
                    try await withGracefulShutdownHandler {
                        var cursor = start
                        try await writer.write(ByteBuffer(string: ": changes of realm '\(name)' after version \(start)\n\n"))
                        cursor = try await Self.send(after: cursor, of: name, realms: realms, to: &writer)
                        guard follows else { return }
                        for await signal in signals {
                            switch signal {
                            case .changed(let version) where version > cursor:
                                cursor = try await Self.send(after: cursor, of: name, realms: realms, to: &writer)
                            case .changed: continue
                            case .keepAlive: try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                            }
                        }
                    } onGracefulShutdown: {
                        feeds.stopListening(to: name, id: id)
                    }
                } catch let error as KuraError where error.code == .store(.changesPruned) {
                    let problem = ProblemMapping.problem(for: error)
                    try await writer.write(ByteBuffer(string: "event: pruned\ndata: \(problem.json)\n"))
                } catch {
                    logger.info("changes stream of realm '\(name)' ended: \(String(describing: error))")
                    throw error
                }
                try await writer.finish(nil)
            })
        }
    }

    /// Sends the events of every commit after `cursor`, a batch at a time; returns the new cursor.
    private static func send(
        after cursor: Int64, of name: String, realms: ServedRealms, to writer: inout any ResponseBodyWriter
    ) async throws -> Int64 {
        var cursor = cursor
        while true {
            let from = cursor
            let events = try await realms.work.run { try realms.reading(name) { try ChangeEvents(realm: $0, after: from, limit: batch) } }
            if events.text.isEmpty { return cursor }
            try await writer.write(ByteBuffer(string: events.text))
            cursor = events.lastVersion
        }
    }

    /// The version to send changes after: the realm's latest, or the one `Last-Event-ID` gives.
    private static func startingVersion(_ realm: Realm, resumeText: String?) throws -> Int64 {
        let latest = try realm.changeVersion
        // An empty Last-Event-ID is none, as the server-sent events standard has it.
        let trimmed = resumeText?.trimmingCharacters(in: .whitespaces) ?? ""
        guard let resumeText, !trimmed.isEmpty else { return latest }
        guard let version = Int64(trimmed), version >= 0 else {
            throw Problem.badParameter("Last-Event-ID '\(MessageText.shown(resumeText))' is not a version: it must be a whole number")
        }
        guard version <= latest else {
            throw Problem.badParameter("Last-Event-ID \(version) is after the realm's latest version, \(latest)")
        }
        // Throws changesPruned (410) when the log no longer reaches back to `version`.
        _ = try realm.changes(after: version, limit: 1)
        return version
    }
}
