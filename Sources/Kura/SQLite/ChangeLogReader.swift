import Foundation
import GRDB

/// Reads the change log `ChangeTracker` keeps in a realm file, as `RealmChange`s.
struct ChangeLogReader {
    let db: Database
    /// The schema deleted objects' primary keys decode by.
    let schema: Schema

    /// The logged commits after `version`, oldest first, at most `limit` of them.
    func changes(after version: Int64, limit: Int) throws -> [RealmChange] {
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
            // Read with byte counts: GRDB reads text up to its first NUL, and a deleted key may hold one.
            let entries = try DirectStatement(db, sql: """
                SELECT "type", "kind", "id", "lastId", "key" FROM \(ChangeTracker.changedTable)
                WHERE "version" = ? ORDER BY "type", "kind", "id"
                """, cached: true)
            try entries.forEachRow([number.databaseValue]) { entry in
                let type = entry.text(0)
                let id = entry.integer(2)
                switch ChangeTracker.Kind(rawValue: entry.integer(1)) {
                case .inserted?:
                    let last = entry.int64(3) ?? id
                    change.types[type, default: TypeChanges()].inserted.append(id...Swift.max(id, last))
                case .modified?:
                    change.types[type, default: TypeChanges()].modified.append(id)
                case .deleted?:
                    let key = decodeKey(entry[4], of: type)
                    change.types[type, default: TypeChanges()].deleted.append(DeletedObject(id: id, primaryKey: key))
                case nil:
                    throw KuraError.store(.corruptRealm, "the change log of version \(number) holds an entry of unknown kind for '\(type)'")
                }
            }
            changes.append(change)
        }
        return changes
    }

    private func decodeKey(_ stored: DatabaseValue, of type: String) -> Value? {
        guard !stored.isNull, let property = schema[type: type]?.primaryKeyProperty else { return nil }
        return try? ScalarCodec.decode(stored, as: property.type)
    }
}
