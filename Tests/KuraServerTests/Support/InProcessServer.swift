import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KuraServer
import KuraTestSupport
import Logging
import NIOCore
import Yams

/// The application `kura serve` runs, answering in this process through HummingbirdTesting's
/// router framework: the same router and middleware, over real realm files, with no port and no
/// process. Route tests use it; what needs a socket or a process (shutdown, streaming memory,
/// faults, hostile clients, load, browsers) starts a `ServerProcess`.
struct InProcessServer: Sendable {
    let client: any TestClientProtocol

    /// A request, as `ServerProcess.request` makes it, answered by the router.
    func request(_ path: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) async throws
        -> HTTPReply
    {
        var fields = HTTPFields()
        for (field, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard let name = HTTPField.Name(field) else { throw ServerStartFailure(log: "bad header name '\(field)'") }
            fields.append(HTTPField(name: name, value: value))
        }
        let response = try await client.execute(
            uri: path, method: HTTPRequest.Method(rawValue: method) ?? .get, headers: fields,
            body: body.map { ByteBuffer(bytes: $0) })
        var replyHeaders: [String: String] = [:]
        for field in response.headers { replyHeaders[field.name.canonicalName] = field.value }
        return HTTPReply(status: response.status.code, headers: replyHeaders, body: Data(response.body.readableBytesView))
    }
}

extension ServiceFixture {
    /// What `kura serve ARGUMENTS` in this folder serves, answering in process: the realm files
    /// named (served under their names without extension), after the `server:` section of this
    /// folder's config.yaml if there is one.
    func serveInProcess(_ realms: [String] = ["zoo.realm"]) async throws -> InProcessServer {
        var configuration = ServerConfiguration()
        let configPath = path("config.yaml")
        if FileManager.default.fileExists(atPath: configPath) {
            let file = try YAMLDecoder().decode(ServedConfigFile.self, from: try String(contentsOfFile: configPath, encoding: .utf8))
            if let server = file.server { configuration = server }
            configuration.realms = configuration.realms.mapValues { $0.hasPrefix("/") ? $0 : path($0) }
            if realms.isEmpty, configuration.realms.isEmpty, let realm = file.realm {
                configuration.realms[Self.servedName(realm)] = realm.hasPrefix("/") ? realm : path(realm)
            }
        }
        for realm in realms { configuration.realms[Self.servedName(realm)] = path(realm) }
        configuration.port = 0
        // Requests here pass through the router on Swift's shared threads, which a loaded suite can
        // keep from running for longer than the idle limits: unless a test sets them, they wait.
        let defaults = ServerConfiguration()
        if configuration.bodyIdleTimeout == defaults.bodyIdleTimeout { configuration.bodyIdleTimeout = 3600 }
        if configuration.sendIdleTimeout == defaults.sendIdleTimeout { configuration.sendIdleTimeout = 3600 }
        let service = try KuraService(configuration: configuration, logger: Logger(label: "kura.serve", factory: { _ in SwiftLogNoOpLogHandler() }))
        let client = try await service.application().test(.router) { client in client }
        return InProcessServer(client: client)
    }

    private static func servedName(_ path: String) -> String {
        URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }
}

/// The keys of config.yaml `kura serve` reads.
private struct ServedConfigFile: Decodable {
    var realm: String?
    var server: ServerConfiguration?
}
