import Foundation
import Kura

/// One page of a type's objects in primary-key order: `{"objects", "count", "next"}`.
///
/// The cursor is the last key of the page, so the next page starts after it whatever was inserted
/// or deleted meanwhile; `count` is the number of objects the `where` predicate selects.
struct ObjectPage {
    let realm: Realm
    let realmName: String
    let type: ObjectSchema
    let request: PageRequest

    func json() throws -> String {
        guard let keyName = type.primaryKey else {
            throw Problem.badParameter("type '\(type.name)' has no primary key, so it cannot be paged: use …/export?type=\(type.name)")
        }
        var clauses = request.predicate.map { ["(\($0))"] } ?? []
        if let after = request.after {
            guard let key = try? PrimaryKeyText(after, of: type) else {
                throw Problem.badParameter("after '\(after)' is not a key of type '\(type.name)'")
            }
            clauses.append("\(keyName) > \(key.literal)")
        }
        let selection = clauses.isEmpty ? nil : clauses.joined(separator: " AND ")
        let count = try realm.count(type.name, where: request.predicate)
        let window = try realm.objects(type.name, where: selection, sortedBy: keyName, limit: request.limit + 1)
        var next = "null"
        if window.count > request.limit, let last = PrimaryKeyText.text(of: try window[request.limit - 1].value(forKey: keyName)) {
            next = JSONText.string(nextURL(after: last))
        }
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: realm.schema, format: .json, output: output)
        let options = ExportOptions(type: type.name, predicate: selection, sort: keyName, limit: request.limit)
        _ = try RealmExporter(realm: realm, options: options).run(to: writer)
        var documents = String(decoding: output.bytes, as: UTF8.self)
        while documents.last == "\n" { documents.removeLast() }
        return JSONText.object([("objects", documents), ("count", String(count)), ("next", next)])
    }

    private func nextURL(after key: String) -> String {
        var items = [("limit", String(request.limit))]
        if let predicate = request.predicate { items.append(("where", predicate)) }
        items.append(("after", key))
        let query = items.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
        return "/v1/realms/\(Self.encode(realmName))/objects/\(Self.encode(type.name))?\(query)"
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
