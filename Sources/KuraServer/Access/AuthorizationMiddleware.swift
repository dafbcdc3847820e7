import Hummingbird

/// Requires a bearer token good for the route's realm: `read` for GET and HEAD, `write` for other
/// methods, unless the route group asks for a given scope (`admin` for migrate).
struct AuthorizationMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: TokenRegistry
    /// The scope every route of the group needs; `nil` to take it from the method.
    let scope: AccessScope?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let needed = scope ?? (request.method == .get || request.method == .head ? .read : .write)
        let realms = context.parameters.decodedIfPresent("realm").map { [$0] } ?? []
        try tokens.authorize(request.headers[.authorization], scope: needed, realms: realms)
        return try await next(request, context)
    }
}
