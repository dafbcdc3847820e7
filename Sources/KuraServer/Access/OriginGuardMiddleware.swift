import HTTPTypes
import Hummingbird
import Kura

/// Keeps other web pages from using the server through their visitors' browsers.
///
/// A page from another origin can make a browser send simple requests (a form's POST, a `fetch`
/// with a `text/plain` body) without asking the server first, and, through DNS rebinding, can even
/// reach a server on loopback under a name of its own. So a state-changing request (any method but
/// GET, HEAD and OPTIONS) whose `Origin` is not the server's own, nor listed in `server.origins`,
/// is refused (403 `foreign-origin`); and a server on loopback answers only loopback host names
/// (`localhost`, 127.0.0.0/8, `[::1]`) and those `server.hosts` lists (403 `foreign-host`). Clients
/// that are not browsers send no `Origin` and are not affected.
struct OriginGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Host names answered besides loopback ones (`server.hosts`), in lower case.
    let hosts: Set<String>
    /// Whether only loopback names and `hosts` are answered.
    let checksHost: Bool
    /// Origins allowed besides the server's own (`server.origins`).
    let origins: [RequestOrigin]

    init(configuration: ServerConfiguration) {
        hosts = Set(configuration.hosts.map { $0.lowercased() })
        checksHost = configuration.isLoopback || !configuration.hosts.isEmpty
        origins = configuration.origins.compactMap(RequestOrigin.init)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authority = request.head.authority
        if checksHost, let authority, let host = RequestOrigin.hostName(ofAuthority: authority), !isAnswered(host) {
            throw Problem(
                status: 403, code: "foreign-host",
                detail: "this server does not answer to host '\(MessageText.shown(host))': list it in server.hosts to allow it")
        }
        if ![.get, .head, .options].contains(request.method), let given = request.headers[.origin] {
            let origin = RequestOrigin(given)
            let isOwn = origin.map { origin in authority.map(origin.isSameOrigin(asAuthority:)) ?? false } ?? false
            guard isOwn || origin.map(origins.contains) == true else {
                throw Problem(
                    status: 403, code: "foreign-origin",
                    detail: "a page from origin '\(MessageText.shown(given))' may not change this server's realms: list it in server.origins to allow it")
            }
        }
        return try await next(request, context)
    }

    private func isAnswered(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost") || host == "[::1]" || Self.isLoopbackIPv4(host) || hosts.contains(host)
    }

    /// Whether `host` is a dotted IPv4 address in 127.0.0.0/8.
    private static func isLoopbackIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
