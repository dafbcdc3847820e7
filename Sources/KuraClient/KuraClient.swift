import AsyncHTTPClient
import Foundation
import Kura
import NIOCore
import NIOHTTP1

/// A realm served by `kura serve` on another machine, used over its HTTP API: its schema, streamed
/// imports and exports, with the library's errors.
///
/// ```swift
/// let zoo = try KuraClient(url: "https://kura.example.com/v1/realms/zoo", token: token)
/// let summary = try await zoo.importFile("people.json", type: "Person")
/// try await zoo.export(type: "Person", format: .jsonl) { chunk in print(String(buffer: chunk), terminator: "") }
/// ```
public final class KuraClient: Sendable {
    /// The realm this client talks to.
    public let realm: RemoteRealmURL
    private let token: String?
    private let http: HTTPClient

    /// The HTTP client every `KuraClient` shares unless given its own: a connection refused fails
    /// at once (as curl says it) rather than being tried again, connecting gives up after ten
    /// seconds, and a server silent for five minutes (a long import's commit included) is gone.
    public static let sharedHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .minutes(5)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// A client of the realm `realm`, sending `token` as a bearer token when given.
    public init(realm: RemoteRealmURL, token: String? = nil, httpClient: HTTPClient = KuraClient.sharedHTTPClient) {
        self.realm = realm
        self.token = token
        http = httpClient
    }

    /// A client of the realm `url` names (`https://HOST:PORT/v1/realms/NAME`).
    public convenience init(url: String, token: String? = nil) throws(KuraError) {
        self.init(realm: try RemoteRealmURL(url), token: token)
    }

    /// The realm's schema, as the server reads it.
    public func schema() async throws(KuraError) -> Schema {
        let body = try await collect(request("/schema", headers: [("Accept", "application/yaml")]), file: nil)
        do {
            return try Schema(yaml: String(decoding: body, as: UTF8.self), file: realm.description)
        } catch {
            throw KuraError(.remote(.serverFailed), "realm '\(realm)' sent a schema Kura cannot read: \(error.message)", underlying: error)
        }
    }

    /// What `kura check` finds in the realm, as the server checks it; the report names the realm
    /// by this client's URL.
    public func check() async throws(KuraError) -> CheckReport {
        let body = try await collect(request("/check"), file: nil)
        do {
            var report = try JSONDecoder().decode(CheckReport.self, from: Data(body))
            report.path = realm.description
            return report
        } catch {
            throw KuraError(.remote(.serverFailed), "realm '\(realm)' sent a check report Kura cannot read", underlying: error)
        }
    }

    /// How many objects of `type` match `predicate` (all of them without one).
    public func count(_ type: String, where predicate: String? = nil) async throws(KuraError) -> Int {
        var query = [("limit", "1")]
        if let predicate { query.append(("where", predicate)) }
        let body = try await collect(request("/objects/\(RemoteRealmURL.encoded(type))", query: query), file: nil)
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], let count = object["count"] as? Int else {
            throw KuraError(.remote(.serverFailed), "realm '\(realm)' answered a count with what is not one")
        }
        return count
    }

    /// Deletes the objects of `type` matching `predicate` (all of them without one), with what
    /// they own, in one transaction; returns how many were deleted.
    @discardableResult
    public func delete(_ type: String, where predicate: String? = nil) async throws(KuraError) -> Int {
        var request = request("/objects/\(RemoteRealmURL.encoded(type))", query: [("where", predicate ?? "TRUEPREDICATE")])
        request.method = .DELETE
        let body = try await collect(request, file: nil)
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], let count = object["deleted"] as? Int else {
            throw KuraError(.remote(.serverFailed), "realm '\(realm)' answered a delete with what is not a count")
        }
        return count
    }

    /// Exports documents as `kura export` writes them, handing each piece of the stream to
    /// `receive` as it arrives (the next is read once it returns); returns how many bytes came.
    @discardableResult
    public func export(
        type: String? = nil, where predicate: String? = nil, sort: String? = nil, limit: Int? = nil,
        format: DocumentFormat = .json, pretty: Bool = false, _ receive: (ByteBuffer) async throws -> Void
    ) async throws(KuraError) -> Int {
        try await export(ExportOptions(type: type, predicate: predicate, sort: sort, limit: limit), format: format, pretty: pretty, receive)
    }

    /// Exports the documents `options` selects (its type, predicate with arguments, sort, limit,
    /// and whether to follow links), handing each piece of the stream to `receive` as it
    /// arrives; returns how many bytes came.
    @discardableResult
    public func export(
        _ options: ExportOptions, format: DocumentFormat = .json, pretty: Bool = false, _ receive: (ByteBuffer) async throws -> Void
    ) async throws(KuraError) -> Int {
        let response = try await exportResponse(options, format: format, pretty: pretty)
        var count = 0
        do {
            for try await chunk in response.body {
                count += chunk.readableBytes
                do {
                    try await receive(chunk)
                } catch {
                    throw error as? KuraError ?? KuraError(.document(.io), "the export's receiver stopped it: \(error)", underlying: error)
                }
            }
        } catch let error as KuraError {
            throw error
        } catch {
            throw lost(error)
        }
        return count
    }

    /// The export route's response to `options`, its body not yet read.
    func exportResponse(_ options: ExportOptions, format: DocumentFormat, pretty: Bool = false) async throws(KuraError) -> HTTPClientResponse {
        guard options.objectIds == nil, options.after == nil else {
            throw KuraError(.transfer(.usage), "an export of a served realm selects by type, predicate, sort and limit, not by object ids or cursor")
        }
        var query: [(String, String)] = [("format", format.rawValue)]
        if let type = options.type { query.append(("type", type)) }
        if let predicate = options.predicate { query.append(("where", predicate)) }
        if !options.arguments.isEmpty { query.append(("args", try QueryArgumentList.json(options.arguments))) }
        if let sort = options.sort { query.append(("sort", sort)) }
        if let limit = options.limit { query.append(("limit", String(limit))) }
        if options.followingLinks { query.append(("followLinks", "true")) }
        if pretty { query.append(("pretty", "true")) }
        return try await send(request("/export", query: query), file: nil)
    }

    /// Imports the documents of the file at `path`, streamed to the server as it is read; the
    /// server's errors name the file, at the line and column the server found them.
    /// `onProgress` hears how many bytes have been sent; `onRejected`, under `onError` `skip`, the
    /// documents set aside that the server lists.
    public func importFile(
        _ path: String, format: DocumentFormat? = nil, _ options: ImportOptions = ImportOptions(),
        onProgress: @escaping @Sendable (Int) -> Void = { _ in }, onRejected: @Sendable ([RejectedDocument]) -> Void = { _ in }
    ) async throws(KuraError) -> ImportSummary {
        guard let format = format ?? DocumentFormat(fileExtension: URL(fileURLWithPath: path).pathExtension) else {
            throw KuraError(.transfer(.usage), "cannot tell the format of '\(path)' from its extension: give its format")
        }
        let chunks = try FileChunks(path: path, onRead: onProgress)
        return try await importDocuments(chunks, length: chunks.size, format: format, options, name: path, onRejected: onRejected)
    }

    /// Imports the documents `bytes` hold, in `format`, streamed to the server as they come;
    /// `name` is what the errors call the input. Under `onError` `skip`, `onRejected` hears the
    /// documents set aside that the server lists (the first thousand; the summary counts them all).
    public func importDocuments<Bytes: AsyncSequence & Sendable>(
        _ bytes: Bytes, length: Int? = nil, format: DocumentFormat, _ options: ImportOptions = ImportOptions(), name: String = "<input>",
        onRejected: @Sendable ([RejectedDocument]) -> Void = { _ in }
    ) async throws(KuraError) -> ImportSummary where Bytes.Element == ByteBuffer {
        var query: [(String, String)] = [("mode", options.mode.rawValue), ("onError", options.onError.rawValue)]
        if options.batchSize != ImportOptions().batchSize { query.append(("batchSize", String(options.batchSize))) }
        if let type = options.type { query.append(("type", type)) }
        let mapping = options.mapping
        let flags = [("dryRun", options.dryRun), ("skipExisting", options.skipExisting),
                     ("rejectUnknownKeys", mapping.rejectUnknownKeys), ("percentEncodeMapKeys", mapping.percentEncodeMapKeys)]
        query += flags.filter(\.1).map { ($0.0, "true") }
        if mapping.dateStrategy != .strict { query.append(("dateStrategy", mapping.dateStrategy.rawValue)) }
        if mapping.dataStrategy != .strict { query.append(("dataStrategy", mapping.dataStrategy.rawValue)) }
        var request = request("/import", query: query, headers: [("Content-Type", Self.contentType(of: format))])
        request.method = .POST
        request.body = .stream(bytes, length: length.map { .known(Int64($0)) } ?? .unknown)
        let body = try await collect(request, file: name)
        let answer = try ImportAnswer(body, realm: realm)
        onRejected(answer.rejected(file: name))
        return answer.summary(bytes: length)
    }

    // MARK: Requests

    func request(_ route: String, query: [(String, String)] = [], headers: [(String, String)] = []) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: realm.url(route, query: query))
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        return request
    }

    /// Sends `request` and returns the response when it succeeded; throws the server's problem.
    func send(_ request: HTTPClientRequest, file: String?) async throws(KuraError) -> HTTPClientResponse {
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, deadline: .distantFuture)
        } catch {
            throw unreachable(error)
        }
        guard (200..<300).contains(response.status.code) else {
            let body = (try? await Self.bytes(of: response, upTo: 1 << 20)) ?? []
            guard let problem = ServerProblem(status: Int(response.status.code), body: body) else {
                throw KuraError(.remote(.serverFailed), "realm '\(realm)' answered \(response.status.code) \(response.status.reasonPhrase)")
            }
            throw problem.error(realm: realm, file: file)
        }
        return response
    }

    /// Sends `request` and returns its whole (small) body.
    func collect(_ request: HTTPClientRequest, file: String?) async throws(KuraError) -> [UInt8] {
        let response = try await send(request, file: file)
        do {
            return try await Self.bytes(of: response, upTo: 64 << 20)
        } catch {
            throw lost(error)
        }
    }

    private static func bytes(of response: HTTPClientResponse, upTo limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in response.body {
            guard bytes.count + chunk.readableBytes <= limit else { break }
            bytes.append(contentsOf: chunk.readableBytesView)
        }
        return bytes
    }

    /// The error of a request that got no answer: the server never reached, or the connection
    /// lost while the body was on its way.
    private func unreachable(_ error: any Error) -> KuraError {
        if let error = error as? KuraError { return error }
        let reason = Self.reason(error)
        guard reason.hasPrefix("the connection was refused") || reason.hasPrefix("the connection timed out") || reason.hasPrefix("no host") else {
            return lost(error)
        }
        return KuraError(.remote(.unreachable), "cannot reach realm '\(realm)': \(reason)", underlying: error)
    }

    func lost(_ error: any Error) -> KuraError {
        if let error = error as? KuraError { return error }
        return KuraError(.remote(.connectionLost), "the connection to realm '\(realm)' was lost: \(Self.reason(error))", underlying: error)
    }

    /// A driver error in a few words: the common ones as a person says them, others as the
    /// driver does.
    private static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("Connection refused") { return "the connection was refused" }
        if text.lowercased().contains("timeout") || text.contains("timed out") { return "the connection timed out" }
        if text.contains("NXDOMAIN") || text.contains("Name or service not known") { return "no host of that name" }
        if text.contains("reset by peer") || text.contains("remoteConnectionClosed") { return "the server closed it" }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    private static func contentType(of format: DocumentFormat) -> String {
        switch format {
        case .json: "application/json"
        case .jsonl: "application/x-ndjson"
        case .yaml: "application/yaml"
        }
    }
}
