import Hummingbird

/// `GET /openapi.json`: the OpenAPI 3.1 description of every route, served without a token.
struct OpenAPIRoute: RouteSet {
    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        let document = OpenAPIDocument.json
        group.get("openapi.json") { _, _ in TextResponse.json(document) }
    }
}
