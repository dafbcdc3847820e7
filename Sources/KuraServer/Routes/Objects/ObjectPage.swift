import Foundation
import Kura

/// One page of a type's objects: `{"objects", "urls", "count", "next"}`, in the order of `sort` (by
/// primary key, or creation order, by default). `urls` holds the URL of each document's object, in
/// the same order: for a type without a primary key the only place a client learns its object ids.
///
/// `next` carries an opaque keyset cursor (`QueryCursor`: the last object's sort values and object
/// id), so the next page starts right after this one whatever was inserted or deleted meanwhile;
/// `count` is the number of objects the `where` predicate selects.
struct ObjectPage {
    let realm: Realm
    let realmName: String
    let type: ObjectSchema
    let request: PageRequest

    func json() throws -> String {
        var options = ExportOptions(type: type.name, predicate: request.predicate, sort: request.sort, limit: request.limit)
        options.arguments = request.arguments
        if let after = request.after {
            do {
                options.after = try QueryCursor(token: after)
            } catch {
                throw Problem.badParameter("after '\(MessageText.shown(after))' is not a cursor of this page: take it from next, or start again without it")
            }
        }
        let count = try realm.count(type.name, where: request.predicate, arguments: request.arguments)
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: realm.schema, format: .json, output: output)
        var urls: [String] = []
        let realmName = self.realmName
        writer.onStoredDocument = { ref, primaryKey in
            urls.append(JSONText.string(ObjectAddress.path(realm: realmName, type: ref.type, key: ObjectAddress.key(of: ref, primaryKey: primaryKey))))
        }
        if request.nestedURLs { writer.nestedObjectURL = ObjectAddress.nestedURL(in: realmName) }
        let summary = try RealmExporter(realm: realm, options: options).run(to: writer)
        var documents = String(decoding: output.bytes, as: UTF8.self)
        while documents.last == "\n" { documents.removeLast() }
        let next = summary.next.map { JSONText.string(nextURL(after: $0.token)) } ?? "null"
        return JSONText.object([
            ("objects", documents), ("urls", JSONText.array(urls)), ("count", String(count)), ("next", next),
        ])
    }

    private func nextURL(after cursor: String) -> String {
        var items = [("limit", String(request.limit))]
        if let predicate = request.predicate { items.append(("where", predicate)) }
        if let arguments = request.argumentsText { items.append(("args", arguments)) }
        if let sort = request.sort { items.append(("sort", sort)) }
        if request.nestedURLs { items.append((ObjectRoutes.nestedURLsParameter, "true")) }
        items.append(("after", cursor))
        let query = items.map { "\($0.0)=\(ObjectAddress.encode($0.1))" }.joined(separator: "&")
        return "/v1/realms/\(ObjectAddress.encode(realmName))/objects/\(ObjectAddress.encode(type.name))?\(query)"
    }
}
