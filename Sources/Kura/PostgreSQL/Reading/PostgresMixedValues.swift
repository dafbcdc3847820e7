/// Reads the values of mixed properties and elements, with the nested lists and maps kept as
/// containers in the `#mixed` table.
struct PostgresMixedValues {
    let session: PostgresSession
    let catalog: SchemaCatalog

    /// The value a mixed column or element holds: `value` as the server sent it, read by `tag`.
    func decode(tag: Int64, value: StoredCell, depth: Int = 0) throws -> Value {
        if tag == MixedTag.null { return .null }
        let cell = try PostgresLayout.readMixed(value, tag: tag)
        if let type = MixedTag.scalarTypes[tag] { return try ScalarCodec.decode(cell, as: type) }
        if tag >= MixedTag.linkBase {
            guard let typeName = catalog.typeNames[tag - MixedTag.linkBase], case .integer(let id) = cell else {
                throw KuraError.store(.corruptRealm, "a mixed value has an unknown link tag \(tag)")
            }
            return .object(ObjectRef(type: typeName, id: id))
        }
        guard tag == MixedTag.list || tag == MixedTag.map, case .integer(let container) = cell, depth < MixedTag.maxDepth else {
            throw KuraError.store(.corruptRealm, "a mixed value has an invalid tag \(tag)")
        }
        let rows = try session.rows("""
            SELECT \(TableLayout.keyColumn), \(TableLayout.tagColumn), \(TableLayout.valueColumn)
            FROM \(TableLayout.mixedTable) WHERE \(TableLayout.mixedContainerColumn) = $1
            ORDER BY \(TableLayout.positionColumn) NULLS FIRST, \(TableLayout.keyColumn) NULLS FIRST
            """, [.integer(container)])
        if tag == MixedTag.list {
            var items: [Value] = []
            items.reserveCapacity(rows.count)
            for row in rows where row.count == 3 {
                items.append(try decode(tag: row[1].objectId ?? 0, value: row[2], depth: depth + 1))
            }
            return .list(items)
        }
        var entries: [String: Value] = [:]
        for row in rows where row.count == 3 {
            entries[try PostgresLayout.mapKey(row[0])] = try decode(tag: row[1].objectId ?? 0, value: row[2], depth: depth + 1)
        }
        return .map(entries)
    }
}
