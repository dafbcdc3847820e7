import Foundation
import Kura

/// One commit to a served realm, as its `/changes` stream tells it: which objects of each type it
/// inserted, modified and deleted, by the keys a client knows them by.
public struct ServedChange: Sendable, Equatable {
    /// The commit's version; following from it again resumes after this commit.
    public var version: Int64
    /// Whether the commit changed the schema: its objects are not listed; read everything again.
    public var schemaChanged: Bool
    /// What it did to each type's objects, by type name; types it left alone are absent.
    public var types: [String: ServedTypeChanges]

    /// Makes a change.
    public init(version: Int64, schemaChanged: Bool = false, types: [String: ServedTypeChanges] = [:]) {
        self.version = version
        self.schemaChanged = schemaChanged
        self.types = types
    }
}

/// What one commit did to the objects of one type: primary keys (object ids for a type without
/// one), in object id order.
public struct ServedTypeChanges: Sendable, Equatable {
    /// The objects inserted; empty when the list was too long to send (see `insertedCount`).
    public var inserted: [Value]
    /// The objects modified; empty when the list was too long to send.
    public var modified: [Value]
    /// The objects deleted; empty when the list was too long to send.
    public var deleted: [Value]
    /// How many were inserted, modified and deleted, listed or not.
    public var insertedCount: Int
    public var modifiedCount: Int
    public var deletedCount: Int
    /// Whether a kind had too many keys to list, so that only its count came.
    public var truncated: Bool

    /// Makes the changes of a type from its key lists.
    public init(inserted: [Value] = [], modified: [Value] = [], deleted: [Value] = []) {
        self.inserted = inserted
        self.modified = modified
        self.deleted = deleted
        insertedCount = inserted.count
        modifiedCount = modified.count
        deletedCount = deleted.count
        truncated = false
    }
}

extension ServedChange {
    /// The change an event's data describes, `{"version", "types": {T: {"inserted": [keys] or n, …}}}`.
    init(eventData data: String, realm: RemoteRealmURL) throws(KuraError) {
        let unreadable = KuraError(.remote(.serverFailed), "realm '\(realm)' sent a change event Kura cannot read: \(data.prefix(200))")
        guard let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
            let version = (object["version"] as? NSNumber)?.int64Value
        else { throw unreadable }
        self.init(version: version, schemaChanged: object["schemaChanged"] as? Bool ?? false)
        for (type, value) in object["types"] as? [String: Any] ?? [:] {
            guard let kinds = value as? [String: Any] else { throw unreadable }
            var changes = ServedTypeChanges()
            changes.truncated = kinds["truncated"] as? Bool ?? false
            (changes.inserted, changes.insertedCount) = try Self.keys(kinds["inserted"], unreadable)
            (changes.modified, changes.modifiedCount) = try Self.keys(kinds["modified"], unreadable)
            (changes.deleted, changes.deletedCount) = try Self.keys(kinds["deleted"], unreadable)
            types[type] = changes
        }
    }

    /// A kind's keys and count: a list of keys as export writes them, or a count alone.
    private static func keys(_ value: Any?, _ unreadable: KuraError) throws(KuraError) -> ([Value], Int) {
        if let count = value as? Int, !(value is Bool) { return ([], count) }
        guard let list = value as? [Any], JSONSerialization.isValidJSONObject(list),
            let text = try? JSONSerialization.data(withJSONObject: list)
        else { throw unreadable }
        // Keys are written as query arguments are (`{"$oid": …}` for an ObjectId), so they read alike.
        guard let keys = try? QueryArgumentList.values(json: String(decoding: text, as: UTF8.self)) else { throw unreadable }
        return (keys, keys.count)
    }
}
