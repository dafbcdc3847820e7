import Foundation
import Hummingbird
import Kura

/// `DELETE …/objects/{type}/{key}` (honouring `If-Match`) and `DELETE …/objects/{type}?where=…`
/// (`{"deleted": n}`; `where` is required, `TRUEPREDICATE` deletes all). Deleting follows Realm:
/// links to the object become null, it leaves lists, sets and maps, its embedded objects go with it.
struct DeleteRoutes: RouteSet {
    let realms: ServedRealms
    /// Seconds a write waits for another writer that makes no progress (`server.writeWait`).
    let writeWait: Double

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.delete("realms/:realm/objects/:type/:key") { request, context in
            let name = try context.realm()
            let typeName = try context.parameters.decoded("type")
            let keyText = try context.parameters.decoded("key")
            let condition = try ETag.condition(.ifMatch, of: request)
            let realms = self.realms
            try await realms.work.run {
                let realm = try realms.open(name, writeWait: writeWait)
                let type = try ServedRealms.type(typeName, in: realm, realmName: name)
                try realm.write {
                    // Read and deleted in one write transaction, so no other write slips in between.
                    let object = try ObjectAddress.find(keyText, of: type, in: realm, realmName: name)
                    try IfMatchPrecondition.check(condition, on: object, in: realm, named: "\(type.name) '\(MessageText.shown(keyText))'")
                    try realm.delete(object)
                }
            }
            return Response(status: .noContent)
        }
        group.delete("realms/:realm/objects/:type") { request, context in
            let name = try context.realm()
            let typeName = try context.parameters.decoded("type")
            let query = QueryParameters(request)
            guard let predicate = query.text("where") else {
                throw Problem.badParameter("where is required to delete objects; where=TRUEPREDICATE deletes them all")
            }
            let arguments = try query.arguments()
            let realms = self.realms
            let deleted = try await realms.work.run {
                let realm = try realms.open(name, writeWait: writeWait)
                let type = try ServedRealms.type(typeName, in: realm, realmName: name)
                return try realm.write { try realm.delete(type.name, where: predicate, arguments: arguments) }
            }
            return TextResponse.json(JSONText.object([("deleted", String(deleted))]))
        }
    }
}
