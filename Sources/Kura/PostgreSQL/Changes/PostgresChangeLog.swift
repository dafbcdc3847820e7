import Foundation

/// Reads the change log a PostgreSQL realm keeps (`PostgresChangeTracker` writes it) as `RealmChange`s.
struct PostgresChangeLog {
    let session: PostgresSession
    /// The schema deleted objects' primary keys decode by.
    let schema: Schema

    static let versionsTable = TableLayout.quote("#changes")
    static let changedTable = TableLayout.quote("#changed")

    /// The latest version in the log; 0 before the first commit that changed anything.
    static func currentVersion(_ session: PostgresSession) throws -> Int64 {
        try session.value("SELECT coalesce(max(\"version\"), 0) FROM \(versionsTable)")?.objectId ?? 0
    }

    /// The logged commits after `version`, oldest first, at most `limit` of them.
    func changes(after version: Int64, limit: Int) throws -> [RealmChange] {
        let versions = try session.rows("""
            SELECT "version", "time", "schemaChanged"::int::bigint FROM \(Self.versionsTable)
            WHERE "version" > $1 ORDER BY "version" LIMIT $2
            """, [.integer(version), .integer(limit >= Int(Int64.max) ? Int64.max : Int64(limit))])
        if let oldest = try session.value("SELECT min(\"version\") FROM \(Self.versionsTable)")?.objectId, version < oldest - 1 {
            throw KuraError.store(
                .changesPruned,
                "the change log starts after version \(oldest - 1): the changes after version \(version) are no longer recorded")
        }
        var changes: [RealmChange] = []
        for row in versions where row.count == 3 {
            guard let number = row[0].objectId, case .real(let time) = row[1] else { continue }
            var change = RealmChange(version: number, date: Date(timeIntervalSince1970: time), schemaChanged: row[2].objectId == 1, types: [:])
            let entries = try session.rows("""
                SELECT "type", "kind", "id", "lastId", "key" FROM \(Self.changedTable)
                WHERE "version" = $1 ORDER BY "type", "kind", "id"
                """, [.integer(number)])
            for entry in entries where entry.count == 5 {
                guard case .text(let type) = entry[0], let kind = entry[1].objectId, let id = entry[2].objectId else { continue }
                switch PostgresChangeTracker.Kind(rawValue: kind) {
                case .inserted?:
                    let last = entry[3].objectId ?? id
                    change.types[type, default: TypeChanges()].inserted.append(id...Swift.max(id, last))
                case .modified?:
                    change.types[type, default: TypeChanges()].modified.append(id)
                case .deleted?:
                    change.types[type, default: TypeChanges()].deleted.append(DeletedObject(id: id, primaryKey: decodeKey(entry[4], of: type)))
                case nil:
                    throw KuraError.store(.corruptRealm, "the change log of version \(number) holds an entry of unknown kind for '\(type)'")
                }
            }
            changes.append(change)
        }
        return changes
    }

    /// A deleted object's primary key, which the triggers keep as text (`bytea` keys as they are).
    private func decodeKey(_ stored: StoredCell, of type: String) -> Value? {
        guard case .blob(let bytes) = stored, let property = schema[type: type]?.primaryKeyProperty else { return nil }
        let cell: StoredCell
        switch property.type.nonOptional {
        case .int:
            guard let number = Int64(String(decoding: bytes, as: UTF8.self)) else { return nil }
            cell = .integer(number)
        case .string: cell = .text(String(decoding: bytes, as: UTF8.self))
        default: cell = .blob(bytes)
        }
        return try? ScalarCodec.decode(cell, as: property.type)
    }
}
