/// Turns the object ids of a batch of changes into keys: from the objects as they are now, or, for
/// objects deleted since, from the later commit that deleted them.
struct ChangeKeyResolver {
    let realm: Realm
    /// Per type, the keys of objects deleted by the batch's commits, by id, with the deleting version.
    private var deletions: [String: [Int64: (version: Int64, key: Value)]] = [:]
    /// The newest version whose deletions are in `deletions`.
    private var newest: Int64
    private var readPastBatch = false

    init(realm: Realm, batch: [RealmChange], newest: Int64) {
        self.realm = realm
        self.newest = newest
        note(batch)
    }

    /// `change` with its objects named by key; a kind with more than `keyLimit` objects is a count.
    mutating func keyed(_ change: RealmChange, keyLimit: Int) throws -> KeyedChange {
        var types: [String: KeyedTypeChanges] = [:]
        for (name, changes) in change.types {
            guard let type = realm.schema[type: name], !type.isEmbedded, !type.isAsymmetric else { continue }
            // A kind lists its keys or, past `keyLimit`, how many there are.
            func kind(count: Int, keys: () throws -> [Value]) rethrows -> KeyedTypeChanges.Keys {
                count > keyLimit ? .count(count) : .keys(try keys())
            }
            let keyed = KeyedTypeChanges(
                inserted: try kind(count: changes.inserted.reduce(0) { $0 + Int(clamping: $1.count) }) {
                    try keys(of: type, ids: changes.inserted.flatMap { Array($0) }, after: change.version)
                },
                modified: try kind(count: changes.modified.count) {
                    try keys(of: type, ids: changes.modified, after: change.version)
                },
                deleted: kind(count: changes.deleted.count) {
                    changes.deleted.map { deleted in deleted.primaryKey ?? .int(deleted.id) }
                })
            // Objects the commit created and deleted again leave nothing to tell.
            if keyed.inserted.isEmpty, keyed.modified.isEmpty, keyed.deleted.isEmpty { continue }
            types[name] = keyed
        }
        return KeyedChange(version: change.version, schemaChanged: change.schemaChanged, types: types)
    }

    /// The keys of `type`'s objects `ids` that a commit of version `version` changed, in id order;
    /// objects that no longer exist and no later commit deleted (created and deleted by that same
    /// commit) are left out.
    private mutating func keys(of type: ObjectSchema, ids: [Int64], after version: Int64) throws -> [Value] {
        guard !ids.isEmpty else { return [] }
        var found: [Int64: Value] = [:]
        if type.primaryKey != nil {
            found = try realm.primaryKeys(ofType: type.name, ids: ids)
        } else {
            for id in ids where try realm.object(ObjectRef(type: type.name, id: id)) != nil { found[id] = .int(id) }
        }
        var keys: [Value] = []
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
    private mutating func deletedKey(_ type: String, id: Int64, after version: Int64) throws -> Value? {
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
                    deletions[type, default: [:]][deleted.id] = (change.version, deleted.primaryKey ?? .int(deleted.id))
                }
            }
        }
    }
}
