import Foundation
import Kura

/// The server-sent events of `GET /v1/realms/{realm}/changes`: one `change` event per commit of the
/// realm's change log, naming the objects by the keys a client knows them by.
///
/// ```
/// event: change
/// id: 7
/// data: {"version":7,"types":{"Person":{"inserted":[4],"modified":[1],"deleted":[]}}}
/// ```
///
/// Keys are primary keys written as export writes them (`{"$oid": …}` for an ObjectId), or object
/// ids for types without a primary key; each list is in object id order. Past `keyLimit` keys of
/// one kind in one type, that kind is its count instead and the type has `"truncated": true`.
/// A commit that changed the schema has `"schemaChanged": true` and lists no objects. Embedded and
/// asymmetric types are left out: no key reads them.
struct ChangeEvents {
    /// The most keys one kind of one type lists before it becomes a count.
    static let keyLimit = 1000

    /// The events.
    var text = ""
    /// The version of the last event, or the cursor given when there were none.
    var lastVersion: Int64

    /// The events of the commits after `version` in `realm`, at most `limit` of them; throws
    /// `KuraError` with code `.store(.changesPruned)` when the log no longer reaches back to `version`.
    init(realm: Realm, after version: Int64, limit: Int) throws {
        lastVersion = version
        for change in try realm.keyedChanges(after: version, limit: limit, keyLimit: Self.keyLimit) {
            text += Self.event(for: change)
            lastVersion = change.version
        }
    }

    private static func event(for change: KeyedChange) -> String {
        var types: [(String, String)] = []
        for (name, changes) in change.types.sorted(by: { $0.key < $1.key }) {
            var members = [("inserted", json(changes.inserted)), ("modified", json(changes.modified)), ("deleted", json(changes.deleted))]
            if changes.isTruncated { members.append(("truncated", "true")) }
            types.append((name, JSONText.object(members)))
        }
        var data = [("version", String(change.version)), ("types", JSONText.object(types))]
        if change.schemaChanged { data.append(("schemaChanged", "true")) }
        return "event: change\nid: \(change.version)\ndata: \(JSONText.object(data))\n\n"
    }

    /// Keys as a JSON array, or their count.
    private static func json(_ keys: KeyedTypeChanges.Keys) -> String {
        switch keys {
        case .keys(let keys): JSONText.array(keys.map(json))
        case .count(let count): String(count)
        }
    }

    /// A key as JSON, as export writes it.
    private static func json(_ key: Value) -> String {
        switch key {
        case .int(let number): String(number)
        case .string(let text): JSONText.string(text)
        case .objectId(let id): JSONText.object([("$oid", JSONText.string(id.hexString))])
        case .uuid(let id): JSONText.string(id.uuidString.lowercased())
        default: "null"
        }
    }
}
