import Hummingbird

/// Requires a bearer token good for the route's realm: `read` for GET and HEAD, `write` for other
/// methods, unless the route group asks for a given scope (`admin` for migrate). The context keeps
/// what the token may do and the realm the path names, for the route.
struct AuthorizationMiddleware: RouterMiddleware {
    typealias Context = KuraRequestContext

    let tokens: TokenRegistry
    /// The scope every route of the group needs; `nil` to take it from the method.
    let scope: AccessScope?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let needed = scope ?? (request.method == .get || request.method == .head ? .read : .write)
        var context = context
        context.realmName = context.parameters.decodedIfPresent("realm")
        context.access = try tokens.authorize(request.headers[.authorization], scope: needed, realms: context.realmName.map { [$0] } ?? [])
        return try await next(request, context)
    }
}
