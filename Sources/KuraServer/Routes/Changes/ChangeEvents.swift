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
        let changes = try realm.changes(after: version, limit: limit)
        guard let newest = changes.last?.version else { return }
        var resolver = KeyResolver(realm: realm, batch: changes, newest: newest)
        for change in changes {
            text += try Self.event(for: change, resolver: &resolver)
            lastVersion = change.version
        }
    }

    private static func event(for change: RealmChange, resolver: inout KeyResolver) throws -> String {
        var types: [(String, String)] = []
        for (name, changes) in change.types.sorted(by: { $0.key < $1.key }) {
            guard let type = resolver.realm.schema[type: name], !type.isEmbedded, !type.isAsymmetric else { continue }
            var members: [(String, String)] = []
            var truncated = false
            // A kind lists its keys or, past `keyLimit`, how many there are.
            func add(_ kind: String, count: Int, keys: () throws -> [String]) rethrows {
                if count > keyLimit {
                    members.append((kind, String(count)))
                    truncated = true
                } else {
                    members.append((kind, JSONText.array(try keys())))
                }
            }
            try add("inserted", count: changes.inserted.reduce(0) { $0 + Int(clamping: $1.count) }) {
                try resolver.keys(of: type, ids: changes.inserted.flatMap { Array($0) }, after: change.version)
            }
            try add("modified", count: changes.modified.count) {
                try resolver.keys(of: type, ids: changes.modified, after: change.version)
            }
            add("deleted", count: changes.deleted.count) {
                changes.deleted.map { deleted in deleted.primaryKey.map(KeyResolver.json) ?? String(deleted.id) }
            }
            if truncated { members.append(("truncated", "true")) }
            // Objects the commit created and deleted again leave nothing to tell.
            if members.allSatisfy({ $0.1 == "[]" }) { continue }
            types.append((name, JSONText.object(members)))
        }
        var data = [("version", String(change.version)), ("types", JSONText.object(types))]
        if change.schemaChanged { data.append(("schemaChanged", "true")) }
        return "event: change\nid: \(change.version)\ndata: \(JSONText.object(data))\n\n"
    }
}

/// Turns the object ids of a batch of changes into keys: from the objects as they are now, or, for
/// objects deleted since, from the later commit that deleted them (the log records a deleted
/// object's key).
private struct KeyResolver {
    let realm: Realm
    /// Per type, the keys of objects deleted by the batch's commits, by id, with the deleting version.
    private var deletions: [String: [Int64: (version: Int64, key: String)]] = [:]
    /// The newest version whose deletions are in `deletions`.
    private var newest: Int64
    private var readPastBatch = false

    init(realm: Realm, batch: [RealmChange], newest: Int64) {
        self.realm = realm
        self.newest = newest
        note(batch)
    }

    /// The keys of `type`'s objects `ids` that a commit of version `version` changed, in id order;
    /// objects that no longer exist and no later commit deleted (created and deleted by that same
    /// commit) are left out.
    mutating func keys(of type: ObjectSchema, ids: [Int64], after version: Int64) throws -> [String] {
        guard !ids.isEmpty else { return [] }
        var found: [Int64: String] = [:]
        if type.primaryKey != nil {
            for (id, key) in try realm.primaryKeys(ofType: type.name, ids: ids) { found[id] = Self.json(key) }
        } else {
            for id in ids {
                if try realm.object(ObjectRef(type: type.name, id: id)) != nil { found[id] = String(id) }
            }
        }
        var keys: [String] = []
        for id in ids {
            if let key = found[id] {
                keys.append(key)
            } else if let key = try deletedKey(type.name, id: id, after: version) {
                keys.append(key)
            }
        }
        return keys
    }

    /// The key of an object a commit after `version` deleted. An object that was gone when the
    /// keys were read was deleted by a commit the log held by then: in the batch or after it.
    private mutating func deletedKey(_ type: String, id: Int64, after version: Int64) throws -> String? {
        if let entry = deletions[type]?[id], entry.version > version { return entry.key }
        guard !readPastBatch else { return nil }
        readPastBatch = true
        let later = try realm.changes(after: newest)
        note(later)
        newest = later.last?.version ?? newest
        if let entry = deletions[type]?[id], entry.version > version { return entry.key }
        return nil
    }

    private mutating func note(_ changes: [RealmChange]) {
        for change in changes {
            for (type, typeChanges) in change.types {
                for deleted in typeChanges.deleted {
                    let key = deleted.primaryKey.map(Self.json) ?? String(deleted.id)
                    deletions[type, default: [:]][deleted.id] = (change.version, key)
                }
            }
        }
    }

    /// A primary key as JSON, as export writes it.
    static func json(_ key: Value) -> String {
        switch key {
        case .int(let number): String(number)
        case .string(let text): JSONText.string(text)
        case .objectId(let id): JSONText.object([("$oid", JSONText.string(id.hexString))])
        case .uuid(let id): JSONText.string(id.uuidString.lowercased())
        default: "null"
        }
    }
}
