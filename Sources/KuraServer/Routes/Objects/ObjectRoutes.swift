import Foundation
import Hummingbird
import Kura

/// The read side of `/v1/realms/{realm}/objects/{type}`: a page of a query, and one object by key.
struct ObjectRoutes: RouteSet {
    /// Objects per page when `limit` is not given, and the most a page may hold.
    static let defaultLimit = 100
    static let maxLimit = 1000

    let realms: ServedRealms

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.get("realms/:realm/objects/:type") { request, context in
            let name = try context.realm()
            let typeName = try context.parameters.decoded("type")
            let query = QueryParameters(request)
            let request = try PageRequest(
                predicate: query.text("where"), arguments: query.arguments(), argumentsText: query.text("args"), sort: query.text("sort"),
                limit: query.integer("limit", in: 1...Self.maxLimit) ?? Self.defaultLimit, after: query.text("after"),
                nestedURLs: query.flag(Self.nestedURLsParameter))
            let realms = self.realms
            let body = try await realms.work.run {
                try realms.reading(name) { realm in
                    let type = try ServedRealms.type(typeName, in: realm, realmName: name)
                    return try ObjectPage(realm: realm, realmName: name, type: type, request: request).json()
                }
            }
            return TextResponse.json(body)
        }
        group.get("realms/:realm/objects/:type/:key") { request, context in
            let name = try context.realm()
            let typeName = try context.parameters.decoded("type")
            let keyText = try context.parameters.decoded("key")
            let nestedURLs = try QueryParameters(request).flag(Self.nestedURLsParameter)
            let wanted = try ETag.condition(.ifNoneMatch, of: request)
            let realms = self.realms
            let (document, location) = try await realms.work.run {
                try realms.reading(name) { realm in
                    let type = try ServedRealms.type(typeName, in: realm, realmName: name)
                    let object = try ObjectAddress.find(keyText, of: type, in: realm, realmName: name)
                    let document = try ObjectAddress.document(of: object, in: realm, nestedURLsIn: nestedURLs ? name : nil)
                    let path = ObjectAddress.path(realm: name, type: type.name, key: try ObjectAddress.key(named: keyText, of: object, type: type))
                    return (document, nestedURLs ? path + "?\(Self.nestedURLsParameter)=true" : path)
                }
            }
            let tag = ETag.of(document)
            if let wanted, ETag.matchesWeakly(wanted, tag) {
                var headers = HTTPFields()
                headers[.eTag] = tag
                headers[.contentLocation] = location
                return Response(status: .notModified, headers: headers)
            }
            return TextResponse.text(document, contentType: "application/json", headers: [("ETag", tag), ("Content-Location", location)])
        }
    }

    /// The query parameter that adds `"$url"` to each nested object without a primary key.
    static let nestedURLsParameter = "nestedUrls"
}
