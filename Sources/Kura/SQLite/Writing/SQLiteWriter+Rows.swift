import GRDB
import GRDBSQLite

/// The rows the writer reads back and writes one at a time: stored columns and collection
/// elements to compare with what is given, nested mixed containers' entries, and the scan that
/// matches documents without a primary key to stored objects.
extension SQLiteWriter {
    /// Whether the object is stored.
    func objectExists(_ ref: ObjectRef) throws -> Bool {
        try ObjectReader(db: db, catalog: catalog).exists(ref)
    }

    /// Throws `objectDeleted` unless the object is stored (`unknownType` for a type the schema lacks).
    func requireExists(_ ref: ObjectRef) throws {
        try ObjectReader(db: db, catalog: catalog).requireExists(ref)
    }

    /// The stored cell of a property held in the object's own row, with its mixed tag (0 for other kinds).
    func storedColumn(of ref: ObjectRef, _ property: Property) throws -> (tag: Int64, value: StoredCell) {
        let stored = try ObjectReader(db: db, catalog: catalog).storedColumn(of: ref, property)
        return (stored.tag, StoredCell(stored.value))
    }

    /// The value of one collection property of the object.
    func collection(of ref: ObjectRef, _ property: Property) throws -> Value {
        try ObjectReader(db: db, catalog: catalog).collection(of: ref, property)
    }

    /// The stored value of a mixed column or element, its nested containers read.
    func mixedValue(tag: Int64, value: StoredCell) throws -> Value {
        try MixedContainers.decode(tag: tag, value: value.databaseValue, db: db, catalog: catalog)
    }

    /// Deletes the nested container a mixed value holds, if it holds one, with those nested in it.
    func deleteMixedContainer(tag: Int64, value: StoredCell) throws {
        try MixedContainers.deleteContainer(tag: tag, value: value.databaseValue, in: db)
    }

    /// The stored elements of one collection property of `ref` in their order: each one's map key
    /// (maps only) and column value. Read with byte counts: GRDB reads text up to its first NUL.
    func collectionElements(of ref: ObjectRef, _ property: Property, isMap: Bool) throws -> [(key: String?, value: StoredCell)] {
        let table = TableLayout.collectionTable(ref.type, property.name)
        let order = TableLayout.orderColumn(for: property.type)
        let key = isMap ? TableLayout.keyColumn : "NULL"
        var elements: [(key: String?, value: StoredCell)] = []
        try DirectStatement(
            db, sql: "SELECT \(key), \(TableLayout.valueColumn) FROM \(table) WHERE \(TableLayout.ownerColumn) = ? ORDER BY \(order)",
            cached: true
        ).forEachRow([ref.id.databaseValue]) { row in
            elements.append((row.storageClass(0) == SQLITE_TEXT ? row.text(0) : nil, row.cell(1)))
        }
        return elements
    }

    /// Inserts one entry of a nested mixed list (at `position`) or map (under `key`).
    func insertMixedEntry(_ container: Int64, position: Int64?, key: String?, tag: Int64, value: StoredCell) throws {
        // Bound with their byte counts: GRDB binds text up to its first NUL, and "a\u{0}b" is a string.
        let statement = try DirectStatement(db, sql: """
            INSERT INTO \(TableLayout.mixedTable) (\(TableLayout.mixedContainerColumn), \(TableLayout.positionColumn),
            \(TableLayout.keyColumn), \(TableLayout.tagColumn), \(TableLayout.valueColumn)) VALUES (?, ?, ?, ?, ?)
            """, cached: true)
        try statement.execute([container.databaseValue, position.databaseValue, key.databaseValue, tag.databaseValue, value.databaseValue])
    }

    /// Calls `body` with the id and the stored `columns` (by their index there) of every `type`
    /// object whose id is at most `floor`, one row at a time.
    func forEachRow(
        of type: StoredType, columns: [StoredProperty], idAtMost floor: Int64, _ body: (Int64, (Int) -> StoredCell) throws -> Void
    ) throws {
        let names = ([TableLayout.idColumn] + columns.map { TableLayout.column($0.name) }).joined(separator: ", ")
        try DirectStatement(
            db, sql: "SELECT \(names) FROM \(TableLayout.objectTable(type.name)) WHERE \(TableLayout.idColumn) <= ?"
        ).forEachRow([floor.databaseValue]) { row in
            try body(row.integer(0)) { row.cell($0 + 1) }
        }
    }
}
