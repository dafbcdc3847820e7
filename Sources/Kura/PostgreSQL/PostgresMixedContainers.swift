/// Reads and deletes the nested lists and maps of mixed values in a PostgreSQL realm, kept as
/// containers in the `#mixed` table: what reading a mixed value and replacing or deleting one need.
enum PostgresMixedContainers {
    /// The value a mixed column or element holds: `value` is its cell as `PostgresLayout.readMixed`
    /// gives it back for `tag`; nested containers are read.
    static func decode(
        tag: Int64, value: StoredCell, session: PostgresSession, catalog: SchemaCatalog, depth: Int = 0
    ) throws -> Value {
        if tag == MixedTag.null { return .null }
        if let type = MixedTag.scalarTypes[tag] { return try ScalarCodec.decode(value, as: type) }
        if tag >= MixedTag.linkBase {
            guard let typeName = catalog.typeNames[tag - MixedTag.linkBase], case .integer(let id) = value else {
                throw KuraError.store(.corruptRealm, "a mixed value has an unknown link tag \(tag)")
            }
            return .object(ObjectRef(type: typeName, id: id))
        }
        guard tag == MixedTag.list || tag == MixedTag.map, case .integer(let container) = value, depth < MixedTag.maxDepth else {
            throw KuraError.store(.corruptRealm, "a mixed value has an invalid tag \(tag)")
        }
        // All rows are read before any nested container is.
        let rows = try session.rows("""
            SELECT \(TableLayout.keyColumn), \(TableLayout.tagColumn), \(TableLayout.valueColumn)
            FROM \(TableLayout.mixedTable) WHERE \(TableLayout.mixedContainerColumn) = $1
            ORDER BY \(TableLayout.positionColumn), \(TableLayout.keyColumn)
            """, [.integer(container)])
        var items: [Value] = []
        var entries: [String: Value] = [:]
        for row in rows {
            guard row.count == 3, case .integer(let entryTag) = row[1] else {
                throw KuraError.store(.corruptRealm, "the nested container \(container) holds an entry without a tag")
            }
            let entry = try decode(
                tag: entryTag, value: try PostgresLayout.readMixed(row[2], tag: entryTag), session: session, catalog: catalog,
                depth: depth + 1)
            if tag == MixedTag.list {
                items.append(entry)
            } else {
                guard case .text(let key) = try PostgresLayout.read(row[0], as: .string) else {
                    throw KuraError.store(.corruptRealm, "the nested map \(container) holds an entry without a key")
                }
                entries[key] = entry
            }
        }
        return tag == MixedTag.list ? .list(items) : .map(entries)
    }

    /// Deletes the container a mixed value holds, if it holds one, with every container nested in
    /// it; `value` is its cell as `PostgresLayout.readMixed` gives it back.
    static func deleteContainer(tag: Int64, value: StoredCell, in session: PostgresSession) throws(KuraError) {
        guard tag == MixedTag.list || tag == MixedTag.map, case .integer(let root) = value else { return }
        var pending = [root]
        while let container = pending.popLast() {
            let nested = try session.rows("""
                SELECT \(TableLayout.tagColumn), \(TableLayout.valueColumn) FROM \(TableLayout.mixedTable)
                WHERE \(TableLayout.mixedContainerColumn) = $1 AND \(TableLayout.tagColumn) IN (\(MixedTag.list), \(MixedTag.map))
                """, [.integer(container)])
            for row in nested {
                guard row.count == 2, case .integer(let tag) = row[0], case .integer(let child) = try PostgresLayout.readMixed(row[1], tag: tag)
                else { throw KuraError.store(.corruptRealm, "the nested container \(container) holds a container without an id") }
                pending.append(child)
            }
            try session.execute(
                "DELETE FROM \(TableLayout.mixedTable) WHERE \(TableLayout.mixedContainerColumn) = $1", [.integer(container)])
        }
    }
}
