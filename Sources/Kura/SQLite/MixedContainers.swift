import GRDB
import GRDBSQLite

/// Reads and deletes the nested lists and maps of mixed values, kept as containers in the
/// `#mixed` table: what reading a mixed value and replacing or deleting one need.
enum MixedContainers {
    /// The value stored under `tag`, reading nested containers.
    static func decode(tag: Int64, value: DatabaseValue, db: Database, catalog: SchemaCatalog, depth: Int = 0) throws -> Value {
        if tag == MixedTag.null { return .null }
        if let type = MixedTag.scalarTypes[tag] { return try ScalarCodec.decode(value, as: type) }
        if tag >= MixedTag.linkBase {
            guard let typeName = catalog.typeNames[tag - MixedTag.linkBase], case .int64(let id) = value.storage else {
                throw KuraError.store(.corruptRealm, "a mixed value has an unknown link tag \(tag)")
            }
            return .object(ObjectRef(type: typeName, id: id))
        }
        guard tag == MixedTag.list || tag == MixedTag.map, case .int64(let container) = value.storage, depth < MixedTag.maxDepth else {
            throw KuraError.store(.corruptRealm, "a mixed value has an invalid tag \(tag)")
        }
        // Read with their byte counts (GRDB reads text up to its first NUL), all rows before any
        // nested container is read with the same cached statement.
        var rows: [(key: String, tag: Int64, value: DatabaseValue)] = []
        try DirectStatement(db, sql: """
            SELECT \(TableLayout.keyColumn), \(TableLayout.tagColumn), \(TableLayout.valueColumn)
            FROM \(TableLayout.mixedTable) WHERE \(TableLayout.mixedContainerColumn) = ?
            ORDER BY \(TableLayout.positionColumn), \(TableLayout.keyColumn)
            """, cached: true).forEachRow([container.databaseValue]) { row in
            rows.append((row.storageClass(0) == SQLITE_TEXT ? row.text(0) : "", row.integer(1), row[2]))
        }
        if tag == MixedTag.list {
            var items: [Value] = []
            items.reserveCapacity(rows.count)
            for row in rows {
                items.append(try decode(tag: row.tag, value: row.value, db: db, catalog: catalog, depth: depth + 1))
            }
            return .list(items)
        }
        var entries: [String: Value] = [:]
        for row in rows {
            entries[row.key] = try decode(tag: row.tag, value: row.value, db: db, catalog: catalog, depth: depth + 1)
        }
        return .map(entries)
    }

    /// Deletes the container a mixed value holds, if it holds one, with every container nested in it.
    static func deleteContainer(tag: Int64, value: DatabaseValue, in db: Database) throws {
        guard tag == MixedTag.list || tag == MixedTag.map, case .int64(let root) = value.storage else { return }
        var pending = [root]
        let children = try db.cachedStatement(sql: """
            SELECT \(TableLayout.valueColumn) FROM \(TableLayout.mixedTable)
            WHERE \(TableLayout.mixedContainerColumn) = ? AND \(TableLayout.tagColumn) IN (\(MixedTag.list), \(MixedTag.map))
            """)
        let delete = try db.cachedStatement(
            sql: "DELETE FROM \(TableLayout.mixedTable) WHERE \(TableLayout.mixedContainerColumn) = ?")
        while let container = pending.popLast() {
            pending.append(contentsOf: try Int64.fetchAll(children, arguments: [container]))
            try delete.execute(arguments: [container])
        }
    }
}
