import Dispatch
import HTTPTypes
import Hummingbird
import Kura
import Logging

/// `GET /v1/realms/{realm}/export`: the documents `kura export` writes with the same options,
/// streamed as they are written.
struct ExportRoute: RouteSet {
    let realms: ServedRealms
    let logger: Logger
    let metrics: ServiceMetrics
    /// Seconds the export waits for its client to read before it gives up (`server.sendIdleTimeout`).
    let sendIdleTimeout: Double

    /// With `followLinks`, how many of the documents, from the first, are the selection.
    static var selectedField: HTTPField.Name { HTTPField.Name("Kura-Selected-Count")! }

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.get("realms/:realm/export") { request, context in
            let name = try context.realm()
            let query = QueryParameters(request)
            var asked = try ExportOptions(
                type: query.text("type"), predicate: query.text("where"), sort: query.text("sort"),
                limit: query.integer("limit", in: 0...Int.max))
            asked.arguments = try query.arguments()
            asked.followingLinks = try query.flag("followLinks")
            let options = asked
            if options.type == nil && (options.predicate != nil || options.sort != nil || options.limit != nil || !options.arguments.isEmpty
                || options.followingLinks) {
                throw Problem.badParameter("where, args, sort, limit and followLinks need type")
            }
            let format = try query.text("format").map { text throws(Problem) in
                guard let format = DocumentFormat(rawValue: text) else {
                    throw Problem.badParameter("format '\(MessageText.shown(text))' is not one of json, jsonl, yaml")
                }
                return format
            } ?? MediaTypes.acceptedFormat(request) ?? .json
            let pretty = try query.flag("pretty")
            let realms = self.realms
            // Refuse a bad realm, type or query before the 200 is sent; the stream can only break off.
            try await realms.work.run {
                try realms.reading(name) { realm in
                    guard let type = options.type else { return }
                    _ = try ServedRealms.type(type, in: realm, realmName: name)
                    _ = try realm.objects(type, where: options.predicate, arguments: options.arguments, sortedBy: options.sort, limit: 0)
                }
            }
            var headers = HTTPFields()
            headers[.contentType] = MediaTypes.contentType(of: format)
            // HEAD: the checks above are the answer; no export is started for a body never sent.
            if request.method == .head { return Response(status: .ok, headers: headers) }
            let pipe = ChunkPipe(idleTimeout: sendIdleTimeout)
            let logger = self.logger
            let metrics = self.metrics
            // How many documents the selection is, told before the first is written: with
            // followLinks, the documents after them are the objects they link to.
            let (selected, selection) = AsyncThrowingStream.makeStream(of: Int.self)
            try await realms.work.start {
                do {
                    let summary = try realms.reading(name) { realm in
                        let output = DocumentOutput(name: "<http>") { try pipe.send($0) }
                        let writer = DocumentWriter(schema: realm.schema, format: format, pretty: pretty, output: output)
                        var exporter = RealmExporter(realm: realm, options: options)
                        exporter.onSelection = { count in
                            selection.yield(count)
                            selection.finish()
                        }
                        return try exporter.run(to: writer)
                    }
                    selection.finish()
                    metrics.exported(realm: name, documents: summary.totalDocuments, bytes: summary.bytes)
                    pipe.finish(throwing: nil)
                } catch {
                    if (error as? KuraError)?.underlying is ChunkPipe.Closed {
                        logger.info("export of realm '\(name)' stopped: the client went away")
                    } else {
                        logger.error("export of realm '\(name)' failed: \(String(describing: error))")
                    }
                    selection.finish(throwing: error)
                    pipe.finish(throwing: error)
                }
            }
            if options.followingLinks {
                for try await count in selected { headers[Self.selectedField] = String(count) }
            }
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                defer { pipe.stop() }
                for try await chunk in pipe.chunks {
                    try await writer.write(ByteBuffer(bytes: chunk))
                    pipe.consumed()
                }
                try await writer.finish(nil)
            })
        }
    }
}
