/// The `server:` section of config.yaml, with its defaults.
public struct ServerConfiguration: Sendable, Equatable, Decodable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one.
    public var port = 8080
    /// Realm names and their files.
    public var realms: [String: String] = [:]
    /// The accepted bearer tokens; none means no authentication, allowed on loopback only.
    public var tokens: [TokenEntry] = []
    /// The largest import body in bytes (4 GiB); other bodies are limited to `maxOtherBodyBytes`.
    public var maxBodyBytes = 4 * 1024 * 1024 * 1024
    /// The largest body of any other request (1 MiB).
    public var maxOtherBodyBytes = 1024 * 1024
    /// How long a write waits for the realm's writer before 503, in seconds.
    public var writeWait = 30.0
    /// How long running requests may take to finish after SIGTERM or SIGINT, in seconds.
    public var shutdownGrace = 30.0
    /// How long a request body may send nothing before it is answered 408 (and an import rolled back), in seconds.
    public var bodyIdleTimeout = 15.0
    /// How long a response may wait for its client to read before the connection is closed, in seconds.
    public var sendIdleTimeout = 30.0
    /// How many requests may run realm work at once; others wait for one to end.
    public var workers = 64
    /// How long a request waits for a free worker before 503, in seconds.
    public var workerWait = 5.0
    /// Host names the server answers besides its own address (on loopback: `localhost`, 127.0.0.0/8
    /// and `::1`), for a server reached through a proxy or a name of its own.
    public var hosts: [String] = []
    /// Web origins besides the server's own that may send state-changing requests (`https://app.example`).
    public var origins: [String] = []

    /// The defaults docs/service.md lists.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case host, port, realms, tokens, maxBodyBytes, writeWait, shutdownGrace, bodyIdleTimeout, sendIdleTimeout, workers
        case workerWait, hosts, origins
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        host = try container.decodeIfPresent(String.self, forKey: .host) ?? host
        port = try container.decodeIfPresent(Int.self, forKey: .port) ?? port
        realms = try container.decodeIfPresent([String: String].self, forKey: .realms) ?? realms
        tokens = try container.decodeIfPresent([TokenEntry].self, forKey: .tokens) ?? tokens
        maxBodyBytes = try container.decodeIfPresent(Int.self, forKey: .maxBodyBytes) ?? maxBodyBytes
        writeWait = try container.decodeIfPresent(Double.self, forKey: .writeWait) ?? writeWait
        shutdownGrace = try container.decodeIfPresent(Double.self, forKey: .shutdownGrace) ?? shutdownGrace
        bodyIdleTimeout = try container.decodeIfPresent(Double.self, forKey: .bodyIdleTimeout) ?? bodyIdleTimeout
        sendIdleTimeout = try container.decodeIfPresent(Double.self, forKey: .sendIdleTimeout) ?? sendIdleTimeout
        workers = try container.decodeIfPresent(Int.self, forKey: .workers) ?? workers
        workerWait = try container.decodeIfPresent(Double.self, forKey: .workerWait) ?? workerWait
        hosts = try container.decodeIfPresent([String].self, forKey: .hosts) ?? hosts
        origins = try container.decodeIfPresent([String].self, forKey: .origins) ?? origins
    }

    /// Whether `host` names this machine only (127.0.0.0/8, ::1, localhost).
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// Checks the settings before the server starts: a usable port and limits, well-formed token
    /// digests, known realms in token entries, and tokens whenever the host is not a loopback one.
    public func validate() throws(ServerSetupError) {
        guard (0...65535).contains(port) else { throw ServerSetupError("server.port \(port) is not a port (0 to 65535)") }
        guard maxBodyBytes > 0 else { throw ServerSetupError("server.maxBodyBytes must be more than 0") }
        guard writeWait >= 0, shutdownGrace >= 0, workerWait >= 0 else {
            throw ServerSetupError("server.writeWait, server.shutdownGrace and server.workerWait must be 0 or more seconds")
        }
        guard bodyIdleTimeout > 0, sendIdleTimeout > 0 else {
            throw ServerSetupError("server.bodyIdleTimeout and server.sendIdleTimeout must be more than 0 seconds")
        }
        guard workers > 0 else { throw ServerSetupError("server.workers must be at least 1") }
        for origin in origins where RequestOrigin(origin) == nil {
            throw ServerSetupError("server.origins: '\(origin)' is not an origin such as https://app.example or http://localhost:3000")
        }
        guard !realms.isEmpty else { throw ServerSetupError("no realm to serve: give REALM, set server.realms or realm in config.yaml") }
        for token in tokens {
            let isHex = token.sha256.count == 64 && token.sha256.allSatisfy { "0123456789abcdef".contains($0) }
            guard isHex else {
                throw ServerSetupError("server.tokens: '\(token.name)': sha256 must be 64 lowercase hexadecimal digits")
            }
            for realm in token.realms ?? [] where realms[realm] == nil {
                throw ServerSetupError("server.tokens: '\(token.name)' names realm '\(realm)', which is not served")
            }
        }
        if tokens.isEmpty && !isLoopback {
            throw ServerSetupError(
                "refusing to serve on '\(host)' without tokens: add server.tokens (kura token new) or listen on 127.0.0.1")
        }
    }
}
