/// The rows the writer reads back and writes one at a time: stored columns and collection
/// elements to compare with what is given, nested mixed containers' entries, and the scan that
/// matches documents without a primary key to stored objects. Cells come back in the form the
/// codec decodes (`PostgresLayout.read`, `readMixed`).
extension PostgresWriter {
    /// Whether the object is stored.
    func objectExists(_ ref: ObjectRef) throws -> Bool {
        let table = TableLayout.objectTable(try catalog.type(ref.type).name)
        return try session.value("SELECT 1 FROM \(table) WHERE \(TableLayout.idColumn) = $1", [.integer(ref.id)]) != nil
    }

    /// Throws `objectDeleted` unless the object is stored (`unknownType` for a type the schema lacks).
    func requireExists(_ ref: ObjectRef) throws {
        guard try objectExists(ref) else {
            throw KuraError.store(.objectDeleted, "object \(ref) has been deleted or was never stored")
        }
    }

    /// The stored cell of a property held in the object's own row, with its mixed tag (0 for other kinds).
    func storedColumn(of ref: ObjectRef, _ property: Property) throws -> (tag: Int64, value: StoredCell) {
        let isMixed = property.type == .mixed
        let columns = TableLayout.column(property.name) + (isMixed ? ", " + TableLayout.tagColumn(property.name) : "")
        let rows = try session.rows(
            "SELECT \(columns) FROM \(TableLayout.objectTable(ref.type)) WHERE \(TableLayout.idColumn) = $1", [.integer(ref.id)])
        guard let row = rows.first, !row.isEmpty else {
            throw KuraError.store(.objectDeleted, "object \(ref) has been deleted or was never stored")
        }
        guard isMixed else { return (0, try PostgresLayout.read(row[0], as: property.type)) }
        guard row.count == 2, case .integer(let tag) = row[1] else {
            throw KuraError.store(.corruptRealm, "object \(ref) has no tag for its mixed property '\(property.name)'")
        }
        return (tag, try PostgresLayout.readMixed(row[0], tag: tag))
    }

    /// The value of one collection property of the object: a list or set as `.list`, a map as `.map`.
    func collection(of ref: ObjectRef, _ property: Property) throws -> Value {
        guard let elementType = property.type.element else { return .null }
        let isMap: Bool
        if case .map = property.type { isMap = true } else { isMap = false }
        // Every row is read before any is decoded: a mixed element may read nested containers.
        let rows = try elementRows(of: ref, property, isMap: isMap)
        let session = try self.session
        func decode(_ row: ElementRow) throws -> Value {
            if elementType == .mixed {
                return try PostgresMixedContainers.decode(tag: row.tag, value: row.value, session: session, catalog: catalog)
            }
            if let target = elementType.objectTypeName {
                guard case .integer(let id) = row.value else { return .null }
                return .object(ObjectRef(type: target, id: id))
            }
            return try ScalarCodec.decode(row.value, as: elementType.nonOptional)
        }
        if isMap {
            var entries: [String: Value] = [:]
            for row in rows { entries[row.key ?? ""] = try decode(row) }
            return .map(entries)
        }
        return .list(try rows.map(decode))
    }

    /// The stored elements of one collection property of `ref` in their order: each one's map key
    /// (maps only) and stored cell.
    func collectionElements(of ref: ObjectRef, _ property: Property, isMap: Bool) throws -> [(key: String?, value: StoredCell)] {
        try elementRows(of: ref, property, isMap: isMap).map { ($0.key, $0.value) }
    }

    /// One stored element: its map key, tag (0 unless mixed) and cell as the codec decodes it.
    struct ElementRow {
        let key: String?
        let tag: Int64
        let value: StoredCell
    }

    /// The elements of one collection property of `ref`, in the collection's order.
    private func elementRows(of ref: ObjectRef, _ property: Property, isMap: Bool) throws -> [ElementRow] {
        guard let elementType = property.type.element else { return [] }
        let isMixed = elementType == .mixed
        let table = TableLayout.collectionTable(ref.type, property.name)
        let selected = [isMap ? TableLayout.keyColumn : "NULL", TableLayout.valueColumn, isMixed ? TableLayout.tagColumn : "0"]
        let rows = try session.rows(
            "SELECT \(selected.joined(separator: ", ")) FROM \(table) WHERE \(TableLayout.ownerColumn) = $1 "
                + "ORDER BY \(PostgresLayout.orderColumn(for: property.type))",
            [.integer(ref.id)])
        return try rows.map { row in
            guard row.count == 3, case .integer(let tag) = row[2] else {
                throw KuraError.store(.corruptRealm, "an element of \(ref).\(property.name) has no tag")
            }
            var key: String?
            if isMap, case .text(let text) = try PostgresLayout.read(row[0], as: .string) { key = text }
            let value = isMixed ? try PostgresLayout.readMixed(row[1], tag: tag) : try PostgresLayout.read(row[1], as: elementType)
            return ElementRow(key: key, tag: tag, value: value)
        }
    }

    /// The stored value of a mixed column or element, its nested containers read.
    func mixedValue(tag: Int64, value: StoredCell) throws -> Value {
        try PostgresMixedContainers.decode(tag: tag, value: value, session: session, catalog: catalog)
    }

    /// Deletes the nested container a mixed value holds, if it holds one, with those nested in it.
    func deleteMixedContainer(tag: Int64, value: StoredCell) throws {
        try PostgresMixedContainers.deleteContainer(tag: tag, value: value, in: session)
    }

    /// Inserts one entry of a nested mixed list (at `position`) or map (under `key`).
    func insertMixedEntry(_ container: Int64, position: Int64?, key: String?, tag: Int64, value: StoredCell) throws {
        try session.execute("""
            INSERT INTO \(TableLayout.mixedTable) (\(TableLayout.mixedContainerColumn), \(TableLayout.positionColumn),
            \(TableLayout.keyColumn), \(TableLayout.tagColumn), \(TableLayout.valueColumn)) VALUES ($1, $2, $3, $4, $5)
            """, [
                .integer(container), position.map(StoredCell.integer) ?? .null, key.map { PostgresLayout.stored(.text($0)) } ?? .null,
                .integer(tag), PostgresLayout.storedMixed(value),
            ])
    }

    /// Calls `body` with the id and the stored `columns` (by their index there) of every `type`
    /// object whose id is at most `floor`, one row at a time, in id order.
    func forEachRow(
        of type: StoredType, columns: [StoredProperty], idAtMost floor: Int64, _ body: (Int64, (Int) -> StoredCell) throws -> Void
    ) throws {
        let names = ([TableLayout.idColumn] + columns.map { TableLayout.column($0.name) }).joined(separator: ", ")
        let rows = try session.rows(
            "SELECT \(names) FROM \(TableLayout.objectTable(type.name)) WHERE \(TableLayout.idColumn) <= $1 ORDER BY \(TableLayout.idColumn)",
            [.integer(floor)])
        for row in rows {
            guard row.count == columns.count + 1, case .integer(let id) = row[0] else {
                throw KuraError.store(.corruptRealm, "an object of \(type.name) has an id that is not an integer")
            }
            let values = try zip(columns, row.dropFirst()).map { property, cell in try PostgresLayout.read(cell, as: property.type) }
            try body(id) { values[$0] }
        }
    }
}
