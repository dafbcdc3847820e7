import Hummingbird

/// The context of every request the server answers: Hummingbird's own, and what the server's
/// middleware settled before the route runs (the limits on its body, the realm its path names, what
/// its token may do), so that a route reads them here and never from the headers again.
struct KuraRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// How much body a route other than import reads and how long it waits for it; set for every
    /// request by `RequestSettingsMiddleware`.
    var bodyLimits = BodyLimits(maxBytes: 0, idleTimeout: 0)
    /// What the request's bearer token may do, once `AuthorizationMiddleware` checked it; `nil`
    /// before, and on routes that need no token.
    var access: RequestAccess?
    /// The realm the path names (`{realm}`), percent-decoded, once `AuthorizationMiddleware` read it.
    var realmName: String?

    init(source: Source) {
        coreContext = .init(source: source)
    }

    /// The realm the route's path names: every route with `{realm}` is behind `AuthorizationMiddleware`,
    /// which reads it.
    func realm() throws(Problem) -> String {
        guard let realmName else {
            throw Problem(status: 500, code: "internal", detail: "the route names no realm")
        }
        return realmName
    }
}

/// Gives every request's context the server's settings that routes need.
struct RequestSettingsMiddleware: RouterMiddleware {
    typealias Context = KuraRequestContext

    let bodyLimits: BodyLimits

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.bodyLimits = bodyLimits
        return try await next(request, context)
    }
}
