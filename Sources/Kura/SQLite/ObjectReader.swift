import GRDB
import GRDBSQLite

/// Reads objects and their properties from a realm's tables.
struct ObjectReader {
    let db: Database
    let catalog: SchemaCatalog

    /// Whether the object is stored.
    func exists(_ ref: ObjectRef) throws -> Bool {
        let statement = try db.cachedStatement(
            sql: "SELECT 1 FROM \(TableLayout.objectTable(ref.type)) WHERE \(TableLayout.idColumn) = ?")
        return try Int64.fetchOne(statement, arguments: [ref.id]) != nil
    }

    /// Throws `objectDeleted` unless the object is stored.
    func requireExists(_ ref: ObjectRef) throws {
        _ = try catalog.type(ref.type)
        guard try exists(ref) else {
            throw KuraError.store(.objectDeleted, "object \(ref) has been deleted or was never stored")
        }
    }

    /// The object id of the `type` object whose primary key column holds `key`.
    func lookup(_ type: ObjectSchema, key: DatabaseValue) throws -> Int64? {
        guard let lookup = try catalog.statements(for: type.name).lookup else { return nil }
        // Bound with its length: GRDB binds a string up to its first NUL, and a key may hold one.
        return try DirectStatement(db, sql: lookup.sql, cached: true).fetchInt64([key])
    }

    /// The object ids of every object of `type`, in creation order.
    func allIds(_ type: String) throws -> [Int64] {
        try Int64.fetchAll(
            db.cachedStatement(
                sql: "SELECT \(TableLayout.idColumn) FROM \(TableLayout.objectTable(type)) ORDER BY \(TableLayout.idColumn)"))
    }

    /// Every stored property of the object, by name: the columns in one query, then each collection.
    func values(of ref: ObjectRef) throws -> [String: Value] {
        let type = try catalog.type(ref.type)
        guard let query = catalog.rowQueries[ref.type] else {
            throw KuraError.store(.unknownType, catalog.schema.noTypeMessage(ref.type))
        }
        guard let row = try storedRow(query.sql, ref: ref) else {
            throw KuraError.store(.objectDeleted, "object \(ref) has been deleted or was never stored")
        }
        var values: [String: Value] = [:]
        values.reserveCapacity(type.storedProperties.count)
        for (property, index) in query.columns {
            // The tag is read only for a mixed property, whose tag column follows its value.
            values[property.name] = try decode(row[index], tag: Int64.fromDatabaseValue(row[index + 1]), as: property.type)
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
            return try column(of: ref, property)
        }
    }

    private func column(of ref: ObjectRef, _ property: Property) throws -> Value {
        let stored = try storedColumn(of: ref, property)
        return try decode(stored.value, tag: stored.tag, as: property.type)
    }

    /// The raw column value of a non-collection property, with its mixed tag (0 for other kinds).
    func storedColumn(of ref: ObjectRef, _ property: Property) throws -> (tag: Int64, value: DatabaseValue) {
        let isMixed = property.type == .mixed
        let columns = TableLayout.column(property.name) + (isMixed ? ", " + TableLayout.tagColumn(property.name) : "")
        guard let row = try storedRow("SELECT \(columns) FROM \(TableLayout.objectTable(ref.type)) WHERE \(TableLayout.idColumn) = ?", ref: ref)
        else {
            throw KuraError.store(.objectDeleted, "object \(ref) has been deleted or was never stored")
        }
        return (isMixed ? Int64.fromDatabaseValue(row[1]) ?? 0 : 0, row[0])
    }

    /// The columns `sql` selects for the object, or `nil` when it is not stored. Read with their
    /// byte counts: GRDB reads a text up to its first NUL.
    private func storedRow(_ sql: String, ref: ObjectRef) throws -> [DatabaseValue]? {
        var found: [DatabaseValue]?
        try DirectStatement(db, sql: sql, cached: true).forEachRow([ref.id.databaseValue]) { row in
            found = (0..<row.count).map { row[$0] }
        }
        return found
    }

    /// A stored value decoded for `type`; a mixed one by its tag, read only for mixed values.
    func decode(_ stored: DatabaseValue, tag: @autoclosure () -> Int64?, as type: PropertyType) throws -> Value {
        if type == .mixed { return try MixedContainers.decode(tag: tag() ?? 0, value: stored, db: db, catalog: catalog) }
        return try element(stored, as: type)
    }

    /// A stored element or column value, decoded for `type`.
    func element(_ stored: DatabaseValue, as type: PropertyType) throws -> Value {
        if let target = type.objectTypeName {
            guard case .int64(let id) = stored.storage else { return .null }
            return .object(ObjectRef(type: target, id: id))
        }
        return try ScalarCodec.decode(stored, as: type.nonOptional)
    }

    /// A list or set as `.list`, a map as `.map`; `table` names another table holding the rows
    /// (a migration reads the old schema's tables under names of their own).
    func collection(of ref: ObjectRef, _ property: Property, table: String? = nil) throws -> Value {
        guard let elementType = property.type.element else { return .null }
        let isMixed = elementType == .mixed
        let table = table ?? TableLayout.collectionTable(ref.type, property.name)
        let valueColumns = TableLayout.valueColumn + (isMixed ? ", " + TableLayout.tagColumn : "")
        let isMap: Bool
        if case .map = property.type { isMap = true } else { isMap = false }
        let order = TableLayout.orderColumn(for: property.type)
        let keyColumn = isMap ? TableLayout.keyColumn + ", " : ""
        // Every row is read before any is decoded: a mixed element may read nested containers.
        var rows: [(key: String, value: DatabaseValue, tag: Int64?)] = []
        try DirectStatement(
            db, sql: "SELECT \(keyColumn)\(valueColumns) FROM \(table) WHERE \(TableLayout.ownerColumn) = ? ORDER BY \(order)", cached: true
        ).forEachRow([ref.id.databaseValue]) { row in
            let offset = isMap ? 1 : 0
            let key = isMap && row.storageClass(0) == SQLITE_TEXT ? row.text(0) : ""
            rows.append((key, row[offset], isMixed ? row.int64(offset + 1) : nil))
        }
        if isMap {
            var entries: [String: Value] = [:]
            for row in rows { entries[row.key] = try decode(row.value, tag: row.tag, as: elementType) }
            return .map(entries)
        }
        return .list(try rows.map { try decode($0.value, tag: $0.tag, as: elementType) })
    }

    /// The objects whose `origin` property (named by a linkingObjects property) links to `ref`, once each.
    func linkingObjects(of ref: ObjectRef, _ property: Property) throws -> [ObjectRef] {
        guard case .linkingObjects(let sourceType, let sourceName) = property.type else { return [] }
        let source = try catalog.type(sourceType)
        let origin = try catalog.property(sourceName, of: source)
        let sql: String
        if origin.type.isCollection {
            sql = """
                SELECT DISTINCT \(TableLayout.ownerColumn) FROM \(TableLayout.collectionTable(sourceType, sourceName))
                WHERE \(TableLayout.valueColumn) = ? ORDER BY 1
                """
        } else {
            sql = """
                SELECT \(TableLayout.idColumn) FROM \(TableLayout.objectTable(sourceType))
                WHERE \(TableLayout.column(sourceName)) = ? ORDER BY 1
                """
        }
        return try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: [ref.id]).map {
            ObjectRef(type: sourceType, id: $0)
        }
    }
}
