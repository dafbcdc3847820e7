import GRDB

/// Reads the old schema's objects during a migration, from the tables the old layout names.
struct OldObjectReader: OldObjectReading {
    let db: Database
    /// The old schema with the type ids it had.
    let catalog: SchemaCatalog
    let layout: OldLayout

    func ids(of type: String) throws -> [Int64] {
        try Int64.fetchAll(
            db, sql: "SELECT \(TableLayout.idColumn) FROM \(layout.objectTable(type)) ORDER BY \(TableLayout.idColumn)")
    }

    func value(of ref: ObjectRef, _ property: Property) throws -> Value? {
        let reader = ObjectReader(db: db, catalog: catalog)
        if property.type.isCollection {
            return try reader.collection(of: ref, property, table: layout.collectionTable(ref.type, property.name))
        }
        let isMixed = property.type == .mixed
        let columns = TableLayout.column(property.name) + (isMixed ? ", " + TableLayout.tagColumn(property.name) : "")
        guard let row = try Row.fetchOne(
            db, sql: "SELECT \(columns) FROM \(layout.objectTable(ref.type)) WHERE \(TableLayout.idColumn) = ?",
            arguments: [ref.id])
        else { return nil }
        return try reader.decode(row[0], tag: isMixed ? row[1] : nil, as: property.type)
    }
}
