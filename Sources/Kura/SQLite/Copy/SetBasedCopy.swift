import GRDB

/// A whole-realm copy made in SQL, for when both realms are SQLite files: one `INSERT … SELECT` per
/// table from the attached source, each object id shifted past the destination's highest and each
/// mixed value's tag renumbered to the destination's type ids.
///
/// It applies only when no object needs judging one by one: every copied type has the same stored
/// properties and flags in both realms, no source primary key is already in the destination (a
/// clash is the mode's to settle, which the object-by-object copy does), and, unless the mode is
/// insert, the destination holds no object of a copied type without a primary key (a copy run
/// again finds those, object by object). The source was checked when its objects were written, so
/// its rows are copied as they are.
struct SetBasedCopy {
    /// The schema name the source realm is attached under.
    static let sourceAlias = "kura_source"

    let source: SchemaCatalog
    let destination: SchemaCatalog
    /// The destination's connection, inside its write transaction.
    let db: Database
    /// Called after each type with the objects copied so far and, when asked for, how many there are in all.
    var onProgress: ((_ copied: Int, _ total: Int?) -> Void)?
    /// Whether objects without a primary key the destination holds are to be found rather than
    /// copied again (any mode but insert, or `skipExisting`): then only an empty table is copied into.
    var findsUnkeyedObjects = false

    private static var sourceSchema: String { TableLayout.quote(sourceAlias) }

    /// Copies the whole source and returns the objects inserted per type, or returns `nil`, having
    /// written nothing, when the copy must go object by object.
    func runIfApplicable() throws -> [String: ChangeCounts]? {
        var types: [ObjectSchema] = []
        for type in source.schema.types where try hasRows(TableLayout.objectTable(type.name), in: Self.sourceSchema) {
            guard try fitsSetBasedCopy(type) else { return nil }
            types.append(type)
        }
        try requireRoomForShiftedIds(of: types.map(\.name))
        let remap = try IdRemapping(source: source, destination: destination, types: types.map(\.name), db: db)
        var total: Int?
        if onProgress != nil { total = try types.reduce(0) { $0 + (try rowCount(of: $1)) } }
        var counts: [String: ChangeCounts] = [:]
        var copied = 0
        for type in types {
            let inserted = try copyTables(of: type, remap: remap)
            counts[type.name] = ChangeCounts(inserted: inserted)
            copied += inserted
            onProgress?(copied, total)
        }
        try copyMixedContainers(remap: remap)
        try raiseCounters(of: types.map(\.name))
        return counts
    }

    /// How many objects of `type` the source holds.
    private func rowCount(of type: ObjectSchema) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \(Self.sourceSchema).\(TableLayout.objectTable(type.name))") ?? 0
    }

    /// Fails when shifting the source's ids past the destination's would pass Int64.max, where the
    /// SQL sums would turn into floating point numbers.
    private func requireRoomForShiftedIds(of types: [String]) throws {
        func counter(_ sql: String, in schema: String, _ arguments: StatementArguments = []) throws -> Int64 {
            try Int64.fetchOne(db, sql: sql.replacingOccurrences(of: "SCHEMA", with: schema), arguments: arguments) ?? 0
        }
        let objectIds = "SELECT \"lastObjectId\" FROM SCHEMA.\(TableLayout.typesTable) WHERE \"name\" = ?"
        for type in types {
            let (last, source) = (try counter(objectIds, in: "main", [type]), try counter(objectIds, in: Self.sourceSchema, [type]))
            if last.addingReportingOverflow(source).overflow {
                throw KuraError.store(.counterExhausted, """
                    the object id counter of \(type) (#types.lastObjectId) would pass Int64.max: \
                    the destination's \(last) and the source's \(source) do not fit together
                    """)
            }
        }
        let containers = "SELECT \"value\" FROM SCHEMA.\(TableLayout.metaTable) WHERE \"key\" = 'lastMixedContainer'"
        let (last, source) = (try counter(containers, in: "main"), try counter(containers, in: Self.sourceSchema))
        if last.addingReportingOverflow(source).overflow {
            throw KuraError.store(.counterExhausted, """
                the container counter (#meta.lastMixedContainer) would pass Int64.max: \
                the destination's \(last) and the source's \(source) do not fit together
                """)
        }
    }

    /// Whether `type` can be copied row for row: same stored properties and flags, no key clash.
    private func fitsSetBasedCopy(_ type: ObjectSchema) throws -> Bool {
        guard let target = destination.schema[type: type.name],
              target.primaryKey == type.primaryKey, target.isEmbedded == type.isEmbedded,
              target.isAsymmetric == type.isAsymmetric,
              Set(target.storedProperties) == Set(type.storedProperties)
        else { return false }
        let table = TableLayout.objectTable(type.name)
        guard let key = type.primaryKey else { return try !findsUnkeyedObjects || !hasRows(table, in: "main") }
        guard try hasRows(table, in: "main") else { return true }
        let column = TableLayout.column(key)
        let clash = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM \(Self.sourceSchema).\(table) AS s
            JOIN main.\(table) AS d ON d.\(column) = s.\(column))
            """) ?? true
        return !clash
    }

    private func hasRows(_ table: String, in schema: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(schema).\(table))") ?? false
    }

    /// Copies the object table of `type` and its collection tables; returns the objects copied.
    private func copyTables(of type: ObjectSchema, remap: IdRemapping) throws -> Int {
        var columns = [TableLayout.idColumn]
        var values = [remap.shifted(TableLayout.idColumn, of: type.name)]
        for property in type.storedProperties where !property.type.isCollection {
            let column = TableLayout.column(property.name)
            columns.append(column)
            if property.type == .mixed {
                let tag = TableLayout.tagColumn(property.name)
                columns.append(tag)
                values += [remap.mixedValue(column, tag: tag), remap.mixedTag(tag)]
            } else if let target = property.type.objectTypeName {
                values.append(remap.shifted(column, of: target))
            } else {
                values.append(column)
            }
        }
        // Columns follow stored property order, so the tables match column for column when the
        // destination declares the properties in the same order.
        let sameOrder = destination.schema[type: type.name]?.storedProperties.map(\.name) == type.storedProperties.map(\.name)
        let objects = try insert(
            into: TableLayout.objectTable(type.name), columns, values, orderedBy: TableLayout.idColumn, sameColumns: sameOrder)
        for property in type.storedProperties {
            guard let element = property.type.element else { continue }
            try copyCollection(property, of: type.name, element: element, remap: remap)
        }
        return objects
    }

    private func copyCollection(_ property: Property, of type: String, element: PropertyType, remap: IdRemapping) throws {
        var columns = [TableLayout.ownerColumn]
        var values = [remap.shifted(TableLayout.ownerColumn, of: type)]
        switch property.type {
        case .list: columns.append(TableLayout.positionColumn)
        case .map: columns.append(TableLayout.keyColumn)
        default: break
        }
        values += columns.dropFirst()
        let value = TableLayout.valueColumn
        columns.append(value)
        if element == .mixed {
            columns.append(TableLayout.tagColumn)
            values += [remap.mixedValue(value, tag: TableLayout.tagColumn), remap.mixedTag(TableLayout.tagColumn)]
        } else if let target = element.objectTypeName {
            values.append(remap.shifted(value, of: target))
        } else {
            values.append(value)
        }
        // A set keeps its insertion order in rowid; lists and maps are ordered by their keys.
        let order = TableLayout.orderColumn(for: property.type) == "rowid" ? "rowid" : nil
        _ = try insert(into: TableLayout.collectionTable(type, property.name), columns, values, orderedBy: order, sameColumns: true)
    }

    private func copyMixedContainers(remap: IdRemapping) throws {
        let tag = TableLayout.tagColumn
        let value = TableLayout.valueColumn
        let container = TableLayout.mixedContainerColumn
        _ = try insert(
            into: TableLayout.mixedTable,
            [container, TableLayout.positionColumn, TableLayout.keyColumn, tag, value],
            [remap.shiftedContainer(container), TableLayout.positionColumn, TableLayout.keyColumn,
             remap.mixedTag(tag), remap.mixedValue(value, tag: tag)],
            orderedBy: "rowid", sameColumns: true)
    }

    /// Inserts the source table's rows into the destination's; returns how many. When nothing is
    /// remapped and the tables have the same columns in the same order, the statement is a plain
    /// `SELECT *`, which SQLite copies record by record without decoding them (into an empty table;
    /// rows keep their order either way).
    private func insert(
        into table: String, _ columns: [String], _ values: [String], orderedBy order: String?, sameColumns: Bool
    ) throws -> Int {
        let source = "\(Self.sourceSchema).\(table)"
        let sql = sameColumns && values == columns
            ? "INSERT INTO main.\(table) SELECT * FROM \(source)"
            : "INSERT INTO main.\(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) "
                + "FROM \(source)" + (order.map { " ORDER BY \($0)" } ?? "")
        try db.execute(sql: sql)
        return db.changesCount
    }

    /// Moves the destination's counters past everything copied: object ids past the shifted ones,
    /// autoIncrement keys to the higher of the two realms', mixed containers past the shifted ones.
    private func raiseCounters(of types: [String]) throws {
        let typesTable = TableLayout.typesTable
        for type in types {
            try db.execute(
                sql: """
                    UPDATE main.\(typesTable) SET
                    "lastObjectId" = "lastObjectId" + (SELECT "lastObjectId" FROM \(Self.sourceSchema).\(typesTable) WHERE "name" = ?1),
                    "lastKey" = max("lastKey", (SELECT "lastKey" FROM \(Self.sourceSchema).\(typesTable) WHERE "name" = ?1))
                    WHERE "name" = ?1
                    """,
                arguments: [type])
        }
        let meta = TableLayout.metaTable
        try db.execute(sql: """
            UPDATE main.\(meta) SET "value" = "value" + (SELECT "value" FROM \(Self.sourceSchema).\(meta)
            WHERE "key" = 'lastMixedContainer') WHERE "key" = 'lastMixedContainer'
            """)
    }
}
