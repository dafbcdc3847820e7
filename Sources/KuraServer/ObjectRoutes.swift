import Foundation
import Hummingbird
import Kura

/// The read side of `/v1/realms/{realm}/objects/{type}`: a page of a query, and one object by key.
struct ObjectRoutes: RouteSet {
    /// Objects per page when `limit` is not given, and the most a page may hold.
    static let defaultLimit = 100
    static let maxLimit = 1000

    let realms: ServedRealms

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("realms/:realm/objects/:type") { request, context in
            let name = try context.parameters.decoded("realm")
            let typeName = try context.parameters.decoded("type")
            let query = QueryParameters(request)
            let request = try PageRequest(
                predicate: query.text("where"), sort: query.text("sort"),
                limit: query.integer("limit", in: 1...Self.maxLimit) ?? Self.defaultLimit, after: query.text("after"))
            let realms = self.realms
            let body = try await realms.work.run {
                try realms.reading(name) { realm in
                    let type = try ServedRealms.type(typeName, in: realm, realmName: name)
                    return try ObjectPage(realm: realm, realmName: name, type: type, request: request).json()
                }
            }
            return ResponseMaking.json(body)
        }
        group.get("realms/:realm/objects/:type/:key") { request, context in
            let name = try context.parameters.decoded("realm")
            let typeName = try context.parameters.decoded("type")
            let keyText = try context.parameters.decoded("key")
            let realms = self.realms
            let document = try await realms.work.run {
                try realms.reading(name) { realm in
                    let type = try ServedRealms.type(typeName, in: realm, realmName: name)
                    return try Self.document(of: type, key: keyText, in: realm, realmName: name)
                }
            }
            let tag = ETag.of(document)
            if let wanted = request.headers[.ifNoneMatch], ETag.matchesWeakly(wanted, tag) {
                var headers = HTTPFields()
                headers[.eTag] = tag
                return Response(status: .notModified, headers: headers)
            }
            return ResponseMaking.text(document, contentType: "application/json", headers: [("ETag", tag)])
        }
    }

    /// The document of the object `key` names (see `ObjectAddress`), as export writes it (one JSON
    /// line); 404 `unknown-key` when there is none.
    static func document(of type: ObjectSchema, key text: String, in realm: Realm, realmName: String) throws -> String {
        try ObjectAddress.document(of: try ObjectAddress.find(text, of: type, in: realm, realmName: realmName), in: realm)
    }
}
