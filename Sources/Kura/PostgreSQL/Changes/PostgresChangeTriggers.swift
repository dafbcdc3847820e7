/// The triggers that note, in `#pending`, the objects a write transaction modifies or deletes:
/// after an update or delete of an object row, and after any change to a collection's rows, for
/// objects that existed when the transaction began (`#floors`). One trigger function per table
/// and event, numbered, since a name made of the table's would pass PostgreSQL's 63 bytes.
enum PostgresChangeTriggers {
    /// The prefix of every trigger function's name, which finds the old ones to drop.
    static let prefix = "kura#track#"

    /// Replaces the realm's triggers with ones for `catalog`'s tables.
    static func install(_ session: PostgresSession, catalog: SchemaCatalog) throws {
        let old = try session.rows("""
            SELECT p.proname FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
            WHERE n.nspname = current_schema() AND starts_with(p.proname, $1)
            """, [.text(prefix)])
        for row in old {
            if case .text(let name) = row.first { try session.execute("DROP FUNCTION \(TableLayout.quote(name))() CASCADE") }
        }
        var number = 0
        func create(_ event: String, on table: String, row: String, owner: String, type: String, kind: PostgresChangeTracker.Kind, key: String = "NULL") throws {
            number += 1
            let name = TableLayout.quote(prefix + String(number))
            let literal = "'" + type.replacingOccurrences(of: "'", with: "''") + "'"
            let conflict = kind == .deleted
                ? "ON CONFLICT (\"type\", \"id\") DO UPDATE SET \"kind\" = excluded.\"kind\", \"key\" = excluded.\"key\""
                : "ON CONFLICT (\"type\", \"id\") DO NOTHING"
            try session.execute("""
                CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $body$
                BEGIN
                    IF \(row).\(owner) <= (SELECT f."last" FROM \(PostgresChangeTracker.floorsTable) AS f WHERE f."type" = \(literal)) THEN
                        INSERT INTO \(PostgresChangeTracker.pendingTable) ("type", "id", "kind", "key")
                        VALUES (\(literal), \(row).\(owner), \(kind.rawValue), \(key)) \(conflict);
                    END IF;
                    RETURN NULL;
                END
                $body$
                """)
            try session.execute("CREATE TRIGGER \(name) AFTER \(event) ON \(table) FOR EACH ROW EXECUTE FUNCTION \(name)()")
        }
        for type in catalog.schema.types {
            let table = TableLayout.objectTable(type.name)
            let id = TableLayout.idColumn
            try create("UPDATE", on: table, row: "OLD", owner: id, type: type.name, kind: .modified)
            try create("DELETE", on: table, row: "OLD", owner: id, type: type.name, kind: .deleted, key: keyBytes(type))
            for property in type.storedProperties where property.type.isCollection {
                let collection = TableLayout.collectionTable(type.name, property.name)
                let owner = TableLayout.ownerColumn
                try create("UPDATE", on: collection, row: "NEW", owner: owner, type: type.name, kind: .modified)
                try create("DELETE", on: collection, row: "OLD", owner: owner, type: type.name, kind: .modified)
            }
        }
    }

    /// The deleted row's primary key as bytes: an integer key as its decimal text, any other as stored.
    private static func keyBytes(_ type: ObjectSchema) -> String {
        guard let key = type.primaryKeyProperty else { return "NULL" }
        let column = "OLD." + TableLayout.column(key.name)
        switch key.type.nonOptional {
        case .int: return "convert_to(\(column)::text, 'UTF8')"
        default: return column
        }
    }
}
