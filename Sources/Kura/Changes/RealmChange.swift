import Foundation
import GRDB

/// What one committed write transaction did to a realm's objects, as its change log records it.
public struct RealmChange: Sendable, Equatable {
    /// The commit's version: one above the version of the commit before it in the same realm file.
    public var version: Int64
    /// When it was committed.
    public var date: Date
    /// Whether the commit changed the schema (an additive change or a migration): its object changes
    /// are not listed, and a reader should read everything again.
    public var schemaChanged: Bool
    /// What it did to each type's objects, by type name; types it left alone are absent.
    public var types: [String: TypeChanges]
}

/// What one commit did to the objects of one type, by internal object id (`ObjectRef.id`).
public struct TypeChanges: Sendable, Equatable {
    /// The objects created, as ranges of ids. A range may hold ids of objects the same commit
    /// deleted again, and ids of objects later commits deleted.
    public var inserted: [ClosedRange<Int64>] = []
    /// Objects that existed before the commit and were changed by it (a property, or the contents
    /// of a list, set or map), in id order.
    public var modified: [Int64] = []
    /// Objects that existed before the commit and were deleted by it, in id order, each with the
    /// primary key it had (`nil` for types without one).
    public var deleted: [DeletedObject] = []

    /// Makes a description of changes.
    public init(inserted: [ClosedRange<Int64>] = [], modified: [Int64] = [], deleted: [DeletedObject] = []) {
        self.inserted = inserted
        self.modified = modified
        self.deleted = deleted
    }

    /// Whether `id` is in one of the inserted ranges.
    public func wasInserted(_ id: Int64) -> Bool {
        inserted.contains { $0.contains(id) }
    }
}

/// An object a commit deleted: its internal id and its primary key.
public struct DeletedObject: Sendable, Equatable {
    /// The internal object id it had.
    public var id: Int64
    /// Its primary key, or `nil` for a type without one.
    public var primaryKey: Value?

    /// Makes a deleted object's description.
    public init(id: Int64, primaryKey: Value?) {
        self.id = id
        self.primaryKey = primaryKey
    }
}

extension Realm {
    /// The version of the realm's last commit that changed an object or the schema, as the change
    /// log records it (0 for a realm no such commit has touched since it began tracking changes).
    /// Read from the file, so commits of other processes count.
    public var changeVersion: Int64 {
        get throws {
            try read { db in try ChangeTracker.hasTables(db) ? ChangeTracker.currentVersion(db) : 0 }
        }
    }

    /// The commits after `version`, oldest first, at most `limit` of them, from this process and any
    /// other: the change log in the realm file.
    ///
    /// The log keeps the last 1000 versions: asking for changes after an older version throws
    /// `KuraError` with code `.store(.changesPruned)`, after which a reader should read everything again.
    public func changes(after version: Int64, limit: Int = Int.max) throws -> [RealmChange] {
        let schema = self.schema
        return try read { db in try Self.readChanges(db, after: version, limit: limit, schema: schema) }
    }

    /// The log's commits after `version`, read through `db`; keys decode by `schema`.
    static func readChanges(_ db: Database, after version: Int64, limit: Int, schema: Schema) throws -> [RealmChange] {
        guard try ChangeTracker.hasTables(db) else { return [] }
        let versions = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT "version", "time", "schemaChanged" FROM \(ChangeTracker.versionsTable)
                WHERE "version" > ? ORDER BY "version" LIMIT ?
                """),
            arguments: [version, limit == Int.max ? -1 : limit])
        let oldest = try Int64.fetchOne(db.cachedStatement(sql: "SELECT min(\"version\") FROM \(ChangeTracker.versionsTable)"))
        if let oldest, version < oldest - 1 {
            throw KuraError.store(
                .changesPruned,
                "the change log starts after version \(oldest - 1): the changes after version \(version) are no longer recorded")
        }
        var changes: [RealmChange] = []
        for row in versions {
            let number: Int64 = row[0]
            var change = RealmChange(
                version: number, date: Date(timeIntervalSince1970: row[1]), schemaChanged: (row[2] as Int64) != 0, types: [:])
            let entries = try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT "type", "kind", "id", "lastId", "key" FROM \(ChangeTracker.changedTable)
                    WHERE "version" = ? ORDER BY "type", "kind", "id"
                    """),
                arguments: [number])
            for entry in entries {
                let type: String = entry[0]
                let id: Int64 = entry[2]
                switch ChangeTracker.Kind(rawValue: entry[1]) {
                case .inserted?:
                    let last: Int64 = entry[3] ?? id
                    change.types[type, default: TypeChanges()].inserted.append(id...Swift.max(id, last))
                case .modified?:
                    change.types[type, default: TypeChanges()].modified.append(id)
                case .deleted?:
                    let key = decodeKey(entry[4], of: type, in: schema)
                    change.types[type, default: TypeChanges()].deleted.append(DeletedObject(id: id, primaryKey: key))
                case nil:
                    throw KuraError.store(.corruptRealm, "the change log of version \(number) holds an entry of unknown kind for '\(type)'")
                }
            }
            changes.append(change)
        }
        return changes
    }

    /// The primary keys of the stored `type` objects among `ids`, by id; ids of objects that no
    /// longer exist are left out. For turning a change's ids into keys.
    public func primaryKeys(ofType type: String, ids: [Int64]) throws -> [Int64: Value] {
        let objectType = try queryableType(type)
        guard let key = objectType.primaryKeyProperty else { return [:] }
        let sql = """
            SELECT \(TableLayout.idColumn), \(TableLayout.column(key.name)) FROM \(TableLayout.objectTable(type))
            WHERE \(TableLayout.idColumn) = ?
            """
        return try read { db in
            let statement = try db.cachedStatement(sql: sql)
            var keys: [Int64: Value] = [:]
            for id in ids {
                guard let row = try Row.fetchOne(statement, arguments: [id]) else { continue }
                keys[id] = try ScalarCodec.decode(row[1], as: key.type)
            }
            return keys
        }
    }

    private static func decodeKey(_ stored: DatabaseValue, of type: String, in schema: Schema) -> Value? {
        guard !stored.isNull, let property = schema[type: type]?.primaryKeyProperty else { return nil }
        return try? ScalarCodec.decode(stored, as: property.type)
    }
}
