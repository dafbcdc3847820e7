/// Reads the old schema's objects during a migration of a PostgreSQL realm, from the tables the old
/// layout names.
struct PostgresOldObjectReader: OldObjectReading {
    let session: PostgresSession
    /// The old schema with the type ids it had.
    let catalog: SchemaCatalog
    let layout: OldLayout

    func ids(of type: String) throws -> [Int64] {
        try session.rows("SELECT \(TableLayout.idColumn) FROM \(layout.objectTable(type)) ORDER BY \(TableLayout.idColumn)")
            .compactMap { $0.first?.objectId }
    }

    func value(of ref: ObjectRef, _ property: Property) throws -> Value? {
        let reader = PostgresObjectReader(session: session, catalog: catalog)
        if property.type.isCollection {
            return try reader.collection(of: ref, property, table: layout.collectionTable(ref.type, property.name))
        }
        let isMixed = property.type == .mixed
        let columns = TableLayout.column(property.name) + (isMixed ? ", " + TableLayout.tagColumn(property.name) : "")
        guard let row = try session.rows(
            "SELECT \(columns) FROM \(layout.objectTable(ref.type)) WHERE \(TableLayout.idColumn) = $1", [.integer(ref.id)]
        ).first, let cell = row.first
        else { return nil }
        return try reader.decode(cell, tag: isMixed && row.count > 1 ? row[1].objectId : nil, as: property.type)
    }
}
