import Hummingbird
import Kura

/// `POST /v1/realms/{realm}/import`: the body read as it arrives by the same reader, mapper and
/// writer as `kura import`; with `onError=stop` all of it or nothing, a client gone mid-body included.
struct ImportRoute: RouteSet {
    /// Rejected documents listed in a response at most; `rejectedCount` has them all.
    static let maxListedRejects = 1000

    let realms: ServedRealms
    let maxBodyBytes: Int
    /// Seconds a write waits for another writer that makes no progress (`server.writeWait`).
    let writeWait: Double
    /// Seconds the body may send nothing before the import is rolled back and answered 408 (`server.bodyIdleTimeout`).
    let bodyIdleTimeout: Double
    let metrics: ServiceMetrics
    /// The imports running now, which `GET …/imports` lists.
    let registry: ImportRegistry

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.get("realms/:realm/imports") { _, context in
            let name = try context.realm()
            let realms = self.realms
            _ = try await realms.work.run { try realms.path(of: name) }
            return TextResponse.json(registry.json(realm: name))
        }
        group.post("realms/:realm/import") { request, context in
            let name = try context.realm()
            let format = try Self.format(of: request)
            if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodyBytes {
                throw Self.tooLarge(maxBodyBytes, committed: 0)
            }
            let options = try Self.options(QueryParameters(request))
            let realms = self.realms
            try await realms.work.run {
                try realms.reading(name) { realm in
                    if let type = options.type { _ = try ServedRealms.type(type, in: realm, realmName: name) }
                }
            }
            let pipe = BodyPipe(idleTimeout: bodyIdleTimeout)
            let limit = maxBodyBytes
            let entry = registry.start(realm: name, type: options.type)
            defer { registry.finish(entry) }
            let pump = Task { await Self.pump(request.body, into: pipe, limit: limit, entry: entry) }
            let committed = Committed()
            let result: Result<ImportResult, any Error>
            do {
                result = .success(try await realms.work.run {
                    defer { pipe.close() }
                    let realm = try realms.open(name, writeWait: writeWait)
                    let reader: any DocumentReader = switch format {
                    case .json: JSONReader(file: "body", layout: .auto, supply: pipe.read)
                    case .jsonl: JSONReader(file: "body", layout: .lines, supply: pipe.read)
                    case .yaml: YAMLReader(file: "body", supply: pipe.read)
                    }
                    return try ImportResult.run(
                        reader, into: realm, options: options, maxListed: Self.maxListedRejects,
                        onProgress: { entry.read(documents: $0) }, onFailure: { committed.documents = $0 })
                })
            } catch {
                result = .failure(error)
            }
            pipe.close()
            if pipe.timedOut {
                // The body's task waits for bytes that may never come: cancelling it ends the wait.
                pump.cancel()
                throw Problem(
                    status: 408, code: "body-idle",
                    detail: "the body sent nothing for \(BodyPipe.seconds(bodyIdleTimeout)) (server.bodyIdleTimeout)"
                        + Self.committedNote(committed.documents),
                    members: Self.committedMembers(committed.documents))
            }
            switch await pump.value {
            case .tooLarge: throw Self.tooLarge(limit, committed: committed.documents)
            case .broken where Task.isCancelled:
                // The server stopped the request: its shutdown grace ran out.
                throw Problem(
                    status: 503, code: "shutting-down",
                    detail: "the server shut down before the body ended" + Self.committedNote(committed.documents),
                    members: Self.committedMembers(committed.documents))
            case .broken: throw ClientGone(detail: "the client went away before the body ended")
            case .complete, .refused: break
            }
            let outcome: ImportResult
            do {
                outcome = try result.get()
            } catch {
                var problem = ProblemMapping.problem(for: error)
                problem.members += Self.committedMembers(committed.documents)
                throw problem
            }
            metrics.imported(realm: name, documents: outcome.documents, bytes: outcome.bytes)
            return TextResponse.json(outcome.json)
        }
    }

    /// The documents an import committed before it failed, passed from its thread.
    private final class Committed: @unchecked Sendable {
        // @unchecked: written by the import's thread before the route reads it, after the import returned.
        var documents = 0
    }

    /// `committedDocuments`, for an answer to an import that failed after it committed some.
    private static func committedMembers(_ documents: Int) -> [(String, String)] {
        documents > 0 ? [("committedDocuments", String(documents))] : []
    }

    /// The end of a message saying what an import that failed committed, when it committed anything.
    private static func committedNote(_ documents: Int) -> String {
        switch documents {
        case 0: ""
        case 1: "; 1 document was committed before the failure"
        default: "; \(documents) documents were committed before the failure"
        }
    }

    /// How a body's delivery ended.
    enum Delivery: Sendable { case complete, tooLarge, broken, refused }

    /// Feeds `body` into `pipe`, stopping at `limit` bytes or when the reader stops taking it, and
    /// counts the bytes in `entry`.
    private static func pump(_ body: RequestBody, into pipe: BodyPipe, limit: Int, entry: ImportRegistry.Entry) async -> Delivery {
        var total = 0
        do {
            for try await buffer in body {
                total += buffer.readableBytes
                entry.received(buffer.readableBytes)
                if total > limit {
                    pipe.finish(failure: BodyPipe.Broken(description: "the body is larger than \(limit) bytes"))
                    return .tooLarge
                }
                if !(await pipe.push(Array(buffer.readableBytesView))) { return .refused }
            }
        } catch {
            pipe.finish(failure: BodyPipe.Broken(description: "the body broke off: \(error)"))
            return .broken
        }
        pipe.finish()
        return .complete
    }

    private static func tooLarge(_ limit: Int, committed: Int) -> Problem {
        Problem(
            status: 413, code: "body-too-large",
            detail: "an import body may hold at most \(limit) bytes (server.maxBodyBytes)" + committedNote(committed),
            members: committedMembers(committed))
    }

    /// The document format the `Content-Type` names; 415 for anything else.
    static func format(of request: Request) throws(Problem) -> DocumentFormat {
        let given = request.headers[.contentType] ?? ""
        guard let format = MediaTypes.format(of: given) else {
            let named = given.isEmpty ? "no Content-Type" : "Content-Type '\(MessageText.shown(given))'"
            throw Problem(
                status: 415, code: "unsupported-media-type",
                detail: "\(named): send application/json, application/x-ndjson or application/yaml")
        }
        return format
    }

    /// The import options of the query: `type`, `mode`, `onError`, `batchSize`, `dryRun`,
    /// `skipExisting`, and the reading options `dateStrategy`, `dataStrategy`, `rejectUnknownKeys`,
    /// `percentEncodeMapKeys`.
    private static func options(_ query: QueryParameters) throws(Problem) -> ImportOptions {
        var options = ImportOptions(type: query.text("type"))
        if let mode = try ObjectWriteRoutes.mode(query.text("mode")) { options.mode = mode }
        options.onError = try choice(query, "onError", default: .stop)
        if let batchSize = try query.integer("batchSize", in: 1...Int.max) { options.batchSize = batchSize }
        options.dryRun = try query.flag("dryRun")
        options.skipExisting = try query.flag("skipExisting")
        if options.skipExisting && options.mode != .error { throw Problem.badParameter("skipExisting goes with mode insert") }
        options.mapping.dateStrategy = try choice(query, "dateStrategy", default: .strict)
        options.mapping.dataStrategy = try choice(query, "dataStrategy", default: .strict)
        options.mapping.rejectUnknownKeys = try query.flag("rejectUnknownKeys")
        options.mapping.percentEncodeMapKeys = try query.flag("percentEncodeMapKeys")
        return options
    }

    /// The parameter `name` as one of `T`'s cases, `fallback` when absent.
    private static func choice<T: RawRepresentable & CaseIterable>(
        _ query: QueryParameters, _ name: String, default fallback: T
    ) throws(Problem) -> T where T.RawValue == String {
        guard let text = query.text(name) else { return fallback }
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue)
            let listed = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
            throw Problem.badParameter("\(name) '\(MessageText.shown(text))' is not \(names.count > 2 ? "one of " : "")\(listed)")
        }
        return value
    }
}
