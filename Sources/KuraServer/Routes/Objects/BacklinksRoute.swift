import Hummingbird
import Kura

/// `GET /v1/realms/{realm}/objects/{type}/{key}/backlinks`: the objects whose links reach one
/// object, for each property that can (a link, or a list, set or map of links, of a type with
/// objects of its own): `{"backlinks": [{"type", "property", "count", "urls"}]}`, in schema order,
/// properties with no such object included. `count` is how many objects link through the property,
/// `urls` the first `limit` of them (creation order).
///
/// A predicate finds the objects linking to an object with a primary key (`ANY dogs.id == 1`); an
/// object without one has no value a predicate could name, so this is how its backlinks are found.
struct BacklinksRoute: RouteSet {
    /// URLs per property when `limit` is not given, and the most a property may list.
    static let defaultLimit = 100
    static let maxLimit = 1000

    let realms: ServedRealms

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.get("realms/:realm/objects/:type/:key/backlinks") { request, context in
            let name = try context.realm()
            let typeName = try context.parameters.decoded("type")
            let keyText = try context.parameters.decoded("key")
            let limit = try QueryParameters(request).integer("limit", in: 1...Self.maxLimit) ?? Self.defaultLimit
            let realms = self.realms
            let body = try await realms.work.run {
                try realms.reading(name) { realm in
                    let type = try ServedRealms.type(typeName, in: realm, realmName: name)
                    let object = try ObjectAddress.find(keyText, of: type, in: realm, realmName: name)
                    return try Self.backlinks(of: object, in: realm, realmName: name, limit: limit)
                }
            }
            return TextResponse.json(body)
        }
    }

    /// The answer's JSON: one entry per property of a top-level type that links to `object`'s type.
    static func backlinks(of object: DynamicObject, in realm: Realm, realmName: String, limit: Int) throws -> String {
        var entries: [String] = []
        for origin in realm.schema.types where !origin.isEmbedded && !origin.isAsymmetric {
            for property in origin.properties where !property.isComputed && property.type.objectTypeName == object.type {
                let linking = try object.linkingObjects(fromType: origin.name, property: property.name)
                var urls: [String] = []
                for source in linking.prefix(limit) {
                    guard let key = try key(of: source, type: origin) else { continue }
                    urls.append(JSONText.string(ObjectAddress.path(realm: realmName, type: origin.name, key: key)))
                }
                entries.append(JSONText.object([
                    ("type", JSONText.string(origin.name)), ("property", JSONText.string(property.name)),
                    ("count", String(linking.count)), ("urls", JSONText.array(urls)),
                ]))
            }
        }
        return JSONText.object([("backlinks", JSONText.array(entries))])
    }

    /// The URL key of `object`, or `nil` when it was deleted since it was found.
    private static func key(of object: DynamicObject, type: ObjectSchema) throws -> String? {
        do {
            return try ObjectAddress.key(of: object, type: type)
        } catch let error as KuraError where error.code == .store(.objectDeleted) {
            return nil
        }
    }
}
