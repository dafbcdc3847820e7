import Hummingbird
import Kura

/// `GET /v1/realms` (names, schema versions, counts: the realms the token may use) and
/// `GET /v1/realms/{realm}/schema`.
struct RealmRoutes: RouteSet {
    let realms: ServedRealms

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.get("realms") { _, context in
            let realms = self.realms
            let names = realms.names.filter { context.access?.mayList($0) ?? false }
            let entries = try await realms.work.run {
                try names.map { name in try realms.reading(name) { try Self.summary(of: $0, named: name) } }
            }
            return TextResponse.json(JSONText.object([("realms", JSONText.array(entries))]))
        }
        group.get("realms/:realm/schema") { request, context in
            let realms = self.realms
            let name = try context.realm()
            if MediaTypes.accepts(request, "application/json") {
                return TextResponse.json(try await realms.work.run { try realms.reading(name) { $0.schema.json } })
            }
            let yaml = try await realms.work.run { try realms.reading(name) { $0.schema.yaml } }
            return TextResponse.text(yaml, contentType: "application/yaml")
        }
    }

    /// `{"name", "schemaVersion", "counts": {type: n}}`, types in schema order.
    private static func summary(of realm: Realm, named name: String) throws -> String {
        let counts = try realm.schema.types.filter { !$0.isEmbedded }.map { type in
            (type.name, String(try realm.count(type.name)))
        }
        return JSONText.object([
            ("name", JSONText.string(name)), ("schemaVersion", String(realm.schema.version)),
            ("counts", JSONText.object(counts)),
        ])
    }
}
