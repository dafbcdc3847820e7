/// Reads objects and their properties from a PostgreSQL realm's tables, one object at a time.
struct PostgresObjectReader {
    let session: PostgresSession
    let catalog: SchemaCatalog

    /// Whether the object is stored.
    func exists(_ ref: ObjectRef) throws -> Bool {
        try session.value("SELECT 1 FROM \(TableLayout.objectTable(ref.type)) WHERE \(TableLayout.idColumn) = $1", [.integer(ref.id)]) != nil
    }

    /// Throws `objectDeleted` unless the object is stored.
    func requireExists(_ ref: ObjectRef) throws {
        _ = try catalog.type(ref.type)
        guard try exists(ref) else { throw Self.missing(ref) }
    }

    /// Every stored property of the object, by name: the columns in one query, then each collection.
    func values(of ref: ObjectRef) throws -> [String: Value] {
        let type = try catalog.type(ref.type)
        guard let query = catalog.rowQueries[ref.type] else {
            throw KuraError.store(.unknownType, catalog.schema.noTypeMessage(ref.type))
        }
        guard let row = try session.rows(query.sql, [.integer(ref.id)]).first else { throw Self.missing(ref) }
        var values: [String: Value] = [:]
        values.reserveCapacity(type.storedProperties.count)
        for (property, index) in query.columns {
            let tag = property.type == .mixed && index + 1 < row.count ? row[index + 1].objectId : nil
            values[property.name] = try decode(row[index], tag: tag, as: property.type)
        }
        for property in type.storedProperties where property.type.isCollection {
            values[property.name] = try collection(of: ref, property)
        }
        return values
    }

    /// One property of the object (linkingObjects included, as a list of links).
    func value(of ref: ObjectRef, _ property: Property) throws -> Value {
        switch property.type {
        case .linkingObjects:
            try requireExists(ref)
            return .list(try linkingObjects(of: ref, property).map(Value.object))
        case .list, .set, .map:
            try requireExists(ref)
            return try collection(of: ref, property)
        default:
            let stored = try storedColumn(of: ref, property)
            return try decode(stored.value, tag: stored.tag, as: property.type)
        }
    }

    /// The stored cell of a non-collection property as the codec reads it, with its mixed tag (0
    /// for other kinds).
    func storedColumn(of ref: ObjectRef, _ property: Property) throws -> (tag: Int64, value: StoredCell) {
        let isMixed = property.type == .mixed
        let columns = TableLayout.column(property.name) + (isMixed ? ", " + TableLayout.tagColumn(property.name) : "")
        let sql = "SELECT \(columns) FROM \(TableLayout.objectTable(ref.type)) WHERE \(TableLayout.idColumn) = $1"
        guard let row = try session.rows(sql, [.integer(ref.id)]).first, let cell = row.first else { throw Self.missing(ref) }
        if isMixed {
            let tag = row.count > 1 ? row[1].objectId ?? 0 : 0
            return (tag, try PostgresLayout.readMixed(cell, tag: tag))
        }
        return (0, try PostgresLayout.read(cell, as: property.type))
    }

    /// A stored cell, as the server sent it, decoded for `type`; a mixed one by its tag.
    func decode(_ stored: StoredCell, tag: Int64?, as type: PropertyType) throws -> Value {
        if type == .mixed { return try PostgresMixedValues(session: session, catalog: catalog).decode(tag: tag ?? 0, value: stored) }
        if let target = type.objectTypeName {
            guard case .integer(let id) = stored else { return .null }
            return .object(ObjectRef(type: target, id: id))
        }
        return try ScalarCodec.decode(try PostgresLayout.read(stored, as: type), as: type.nonOptional)
    }

    /// A list or set as `.list`, a map as `.map`; read from `table` when given (a migration's old
    /// elements, set aside), else from the property's table.
    func collection(of ref: ObjectRef, _ property: Property, table: String? = nil) throws -> Value {
        guard let elementType = property.type.element else { return .null }
        let isMixed = elementType == .mixed
        let isMap: Bool
        if case .map = property.type { isMap = true } else { isMap = false }
        let rows = try session.rows("""
            SELECT \(isMap ? TableLayout.keyColumn : "NULL"), \(TableLayout.valueColumn), \(isMixed ? TableLayout.tagColumn : "0")
            FROM \(table ?? TableLayout.collectionTable(ref.type, property.name)) WHERE \(TableLayout.ownerColumn) = $1
            ORDER BY \(PostgresLayout.orderColumn(for: property.type))
            """, [.integer(ref.id)])
        if isMap {
            var entries: [String: Value] = [:]
            for row in rows where row.count == 3 {
                entries[try PostgresLayout.mapKey(row[0])] = try decode(row[1], tag: row[2].objectId, as: elementType)
            }
            return .map(entries)
        }
        return .list(try rows.filter { $0.count == 3 }.map { try decode($0[1], tag: $0[2].objectId, as: elementType) })
    }

    /// The objects whose `origin` property (named by a linkingObjects property) links to `ref`, once each.
    func linkingObjects(of ref: ObjectRef, _ property: Property) throws -> [ObjectRef] {
        guard case .linkingObjects(let sourceType, let sourceName) = property.type else { return [] }
        let source = try catalog.type(sourceType)
        let origin = try catalog.property(sourceName, of: source)
        let sql = origin.type.isCollection
            ? """
                SELECT DISTINCT \(TableLayout.ownerColumn) FROM \(TableLayout.collectionTable(sourceType, sourceName))
                WHERE \(TableLayout.valueColumn) = $1 ORDER BY 1
                """
            : """
                SELECT \(TableLayout.idColumn) FROM \(TableLayout.objectTable(sourceType))
                WHERE \(TableLayout.column(sourceName)) = $1 ORDER BY 1
                """
        return try session.rows(sql, [.integer(ref.id)]).compactMap { row in
            row.first?.objectId.map { ObjectRef(type: sourceType, id: $0) }
        }
    }

    static func missing(_ ref: ObjectRef) -> KuraError {
        KuraError.store(.objectDeleted, "object \(ref) has been deleted or was never stored")
    }
}
