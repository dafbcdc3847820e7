/// Creates and reads the tables that hold a PostgreSQL realm, in the schema its session's
/// `search_path` names: the internal tables, one table per type and one per collection property,
/// laid out as `SchemaInstaller` lays out a SQLite realm, with `PostgresLayout`'s column types.
enum PostgresSchemaInstaller {
    static let formatVersion: Int64 = 1

    /// The change log's tables (see `ChangeTracker` for what they record).
    static let versionsTable = TableLayout.quote("#changes")
    static let changedTable = TableLayout.quote("#changed")

    /// Whether the realm's schema holds a relation (table, index, view, sequence …) or a type of its own.
    static func holdsData(_ session: PostgresSession) throws(KuraError) -> Bool {
        let arguments: [StoredCell] = [.text(session.location.schema)]
        return try session.value("""
            SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = $1)
            OR EXISTS (SELECT 1 FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
                WHERE n.nspname = $1)
            """, arguments) == .integer(1)
    }

    /// Whether Kura's tables are there.
    static func isInstalled(_ session: PostgresSession) throws(KuraError) -> Bool {
        try hasTables(["#meta"], session)
    }

    /// Whether the realm's schema holds every table in `names` (unquoted).
    static func hasTables(_ names: [String], _ session: PostgresSession) throws(KuraError) -> Bool {
        let found = try session.value("""
            SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND c.relname = ANY (string_to_array($2, '/'))
            """, [.text(session.location.schema), .text(names.joined(separator: "/"))])
        return found == .integer(Int64(names.count))
    }

    /// Creates the realm's schema if need be, the internal tables, the tables of every type of
    /// `schema` and the change log, and stores the schema.
    static func install(_ schema: Schema, in session: PostgresSession) throws(KuraError) {
        try PostgresNames.check(schema)
        // Created only when missing: creating one, even `IF NOT EXISTS`, needs a right on the database.
        let schemaExists = try session.value(
            "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1)", [.text(session.location.schema)])
        if schemaExists != .integer(1) { try session.execute("CREATE SCHEMA \(session.location.quotedSchema)") }
        try session.execute("""
            CREATE TABLE \(TableLayout.metaTable) ("key" text PRIMARY KEY, "value" text)
            """)
        try session.execute("""
            CREATE TABLE \(TableLayout.typesTable) (
                "id" bigint PRIMARY KEY, "name" text NOT NULL UNIQUE,
                "lastObjectId" bigint NOT NULL DEFAULT 0, "lastKey" bigint NOT NULL DEFAULT 0)
            """)
        try session.execute("""
            CREATE TABLE \(TableLayout.mixedTable) (
                \(TableLayout.mixedContainerColumn) bigint NOT NULL, \(TableLayout.positionColumn) bigint,
                \(TableLayout.keyColumn) bytea, \(TableLayout.tagColumn) bigint NOT NULL, \(TableLayout.valueColumn) bytea)
            """)
        try session.execute("""
            CREATE INDEX \(TableLayout.quote("#mixed#container")) ON \(TableLayout.mixedTable)
            (\(TableLayout.mixedContainerColumn), \(TableLayout.positionColumn), \(TableLayout.keyColumn))
            """)
        try session.execute(
            linkIndexSQL(name: "#mixed#link", table: TableLayout.mixedTable, tag: TableLayout.tagColumn, value: TableLayout.valueColumn))
        try session.execute("""
            INSERT INTO \(TableLayout.metaTable) ("key", "value")
            VALUES ('formatVersion', $1), ('lastMixedContainer', '0'), ('layoutVersion', '0')
            """, [.text(String(formatVersion))])
        for type in schema.types { try createTables(for: type, in: session) }
        try installChangeLog(session)
        try PostgresQueryFunctions.install(on: session)
        try storeSchema(schema, in: session)
        try raiseLayoutVersion(session)
    }

    /// Creates the tables of one type and registers it in the types table.
    static func createTables(for type: ObjectSchema, in session: PostgresSession) throws(KuraError) {
        for statement in objectTableSQL(for: type) { try session.execute(statement) }
        for property in type.storedProperties where property.type.isCollection {
            for statement in collectionTableSQL(type.name, property) { try session.execute(statement) }
        }
        try register(type.name, in: session)
    }

    /// Gives a type its row in the types table unless it has one: the next id after the highest,
    /// as SQLite numbers an `INTEGER PRIMARY KEY`.
    static func register(_ typeName: String, in session: PostgresSession) throws(KuraError) {
        try session.execute("""
            INSERT INTO \(TableLayout.typesTable) ("id", "name")
            SELECT coalesce((SELECT max("id") FROM \(TableLayout.typesTable)), 0) + 1, $1::text
            WHERE NOT EXISTS (SELECT 1 FROM \(TableLayout.typesTable) WHERE "name" = $1::text)
            """, [.text(typeName)])
    }

    /// The statements creating a type's object table and its indexes.
    static func objectTableSQL(for type: ObjectSchema) -> [String] {
        var columns = ["\(TableLayout.idColumn) bigint PRIMARY KEY"]
        var indexes: [String] = []
        let table = TableLayout.objectTable(type.name)
        for property in type.storedProperties where !property.type.isCollection {
            let column = TableLayout.column(property.name)
            columns.append("\(column) \(PostgresLayout.sqlType(property.type))")
            if property.type == .mixed {
                columns.append("\(TableLayout.tagColumn(property.name)) bigint NOT NULL DEFAULT 0")
                indexes.append(linkIndexSQL(
                    name: "\(type.name).\(property.name)#link", table: table, tag: TableLayout.tagColumn(property.name), value: column))
            }
            let indexName = TableLayout.quote("\(type.name).\(property.name)#index")
            if property.name == type.primaryKey {
                indexes.append("CREATE UNIQUE INDEX \(indexName) ON \(table) (\(column))")
            } else if property.isIndexed || property.type.objectTypeName != nil {
                indexes.append("CREATE INDEX \(indexName) ON \(table) (\(column))")
            }
        }
        return ["CREATE TABLE \(table) (\(columns.joined(separator: ", ")))"] + indexes
    }

    /// The statements creating one collection property's table and its indexes: `"#row"` first,
    /// numbering rows in insertion order, then `TableLayout.collectionColumns`.
    static func collectionTableSQL(_ typeName: String, _ property: Property) -> [String] {
        guard let element = property.type.element else { return [] }
        let table = TableLayout.collectionTable(typeName, property.name)
        let owner = TableLayout.ownerColumn
        let value = TableLayout.valueColumn
        var columns = ["\(PostgresLayout.rowColumn) bigint GENERATED ALWAYS AS IDENTITY", "\(owner) bigint NOT NULL"]
        var statements: [String] = []
        switch property.type {
        case .list: columns.append("\(TableLayout.positionColumn) bigint NOT NULL")
        case .map: columns.append("\(TableLayout.keyColumn) bytea NOT NULL")
        default: break
        }
        columns.append("\(value) \(PostgresLayout.sqlType(element))")
        if element == .mixed { columns.append("\(TableLayout.tagColumn) bigint NOT NULL DEFAULT 0") }
        switch property.type {
        case .list: columns.append("PRIMARY KEY (\(owner), \(TableLayout.positionColumn))")
        case .map: columns.append("PRIMARY KEY (\(owner), \(TableLayout.keyColumn))")
        default:
            // With "#row", the order a set's elements are read in.
            statements.append(
                "CREATE INDEX \(TableLayout.quote("\(typeName).\(property.name)#owner")) ON \(table) (\(owner), \(PostgresLayout.rowColumn))")
        }
        statements.insert("CREATE TABLE \(table) (\(columns.joined(separator: ", ")))", at: 0)
        if element.objectTypeName != nil {
            statements.append("CREATE INDEX \(TableLayout.quote("\(typeName).\(property.name)#value")) ON \(table) (\(value))")
        }
        if element == .mixed {
            statements.append(
                linkIndexSQL(name: "\(typeName).\(property.name)#link", table: table, tag: TableLayout.tagColumn, value: value))
        }
        return statements
    }

    /// A partial index on the mixed values of one column pair that are links (`MixedTag.linkTerm`),
    /// which the statements unlinking and counting links name in their conditions.
    static func linkIndexSQL(name: String, table: String, tag: String, value: String) -> String {
        "CREATE INDEX \(TableLayout.quote(name)) ON \(table) (\(tag), \(value)) WHERE \(MixedTag.linkTerm(tag))"
    }

    /// Creates the change log's tables if the realm has none yet.
    static func installChangeLog(_ session: PostgresSession) throws(KuraError) {
        try session.execute("""
            CREATE TABLE IF NOT EXISTS \(versionsTable) (
                "version" bigint PRIMARY KEY, "time" double precision NOT NULL, "schemaChanged" boolean NOT NULL DEFAULT false)
            """)
        try session.execute("""
            CREATE TABLE IF NOT EXISTS \(changedTable) (
                "version" bigint NOT NULL, "type" text NOT NULL, "kind" bigint NOT NULL, "id" bigint NOT NULL,
                "lastId" bigint, "key" bytea, PRIMARY KEY ("version", "type", "kind", "id"))
            """)
    }

    /// Stores `schema` (its YAML) and its version in `#meta`.
    static func storeSchema(_ schema: Schema, in session: PostgresSession) throws(KuraError) {
        try session.execute("""
            INSERT INTO \(TableLayout.metaTable) ("key", "value") VALUES ('schema', $1), ('schemaVersion', $2)
            ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value"
            """, [.text(schema.yaml), .text(String(schema.version))])
    }

    /// Raises `#meta.layoutVersion`, which tells every connection that the stored layout changed.
    static func raiseLayoutVersion(_ session: PostgresSession) throws(KuraError) {
        try session.execute("""
            UPDATE \(TableLayout.metaTable) SET "value" = (("value")::bigint + 1)::text WHERE "key" = 'layoutVersion'
            """)
    }

    /// The stored layout's version (`raiseLayoutVersion`); 0 for a realm without one.
    static func layoutVersion(_ session: PostgresSession) throws(KuraError) -> Int64 {
        guard case .text(let text)? = try session.value("SELECT \"value\" FROM \(TableLayout.metaTable) WHERE \"key\" = 'layoutVersion'")
        else { return 0 }
        guard let version = Int64(text) else {
            throw KuraError.store(.corruptRealm, "the realm's layout version '\(text)' (#meta.layoutVersion) is not a number")
        }
        return version
    }

    /// The schema stored in the realm.
    static func storedSchema(_ session: PostgresSession) throws(KuraError) -> Schema {
        guard case .text(let text)? = try session.value("SELECT \"value\" FROM \(TableLayout.metaTable) WHERE \"key\" = 'schema'") else {
            throw KuraError.store(.corruptRealm, "the realm has no stored schema")
        }
        do {
            return try Schema(storedYAML: text)
        } catch {
            throw KuraError.store(.corruptRealm, "the realm's stored schema cannot be read: \(error)", underlying: error)
        }
    }

    /// Each type's stable id, by name.
    static func typeIds(_ session: PostgresSession) throws(KuraError) -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for row in try session.rows("SELECT \"id\", \"name\" FROM \(TableLayout.typesTable)") {
            guard row.count == 2, case .integer(let id) = row[0], case .text(let name) = row[1] else {
                throw KuraError.store(.corruptRealm, "the types table holds a row without a name or id")
            }
            ids[name] = id
        }
        return ids
    }
}
