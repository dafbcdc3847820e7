import Hummingbird

/// `GET /openapi.json`: the OpenAPI 3.1 description of every route, served without a token. It
/// shows the realms the request may list (every realm on a server without tokens, those of its
/// token otherwise), read afresh for each request; without a token on a server with tokens it
/// shows no realm's names, types or objects, only the route templates.
struct OpenAPIRoute: RouteSet {
    let realms: ServedRealms
    let tokens: TokenRegistry

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.get("openapi.json") { request, _ in
            let access = tokens.access(request.headers[.authorization])
            let names = realms.names.filter { access?.mayList($0) ?? false }
            let snapshots = try await RealmSnapshot.read(names, of: realms)
            return TextResponse.json(OpenAPIDocument(realms: snapshots).json)
        }
    }
}
