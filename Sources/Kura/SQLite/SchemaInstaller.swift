import GRDB

/// Creates and reads the tables that hold a realm: the internal metadata tables and one
/// table per type plus one per collection property.
enum SchemaInstaller {
    static let formatVersion: Int64 = 1

    /// Whether the database holds any table, index, view or trigger: one without Kura's tables is
    /// made a realm only when it holds nothing.
    static func holdsTables(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master)") ?? false
    }

    /// Whether Kura's tables are there.
    static func isInstalled(_ db: Database) throws -> Bool {
        try db.tableExists("#meta")
    }

    /// Creates the metadata tables and the tables of every type of `schema`.
    static func install(_ schema: Schema, in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE \(TableLayout.metaTable) ("key" TEXT PRIMARY KEY NOT NULL, "value" ANY) STRICT;
            CREATE TABLE \(TableLayout.typesTable) (
                "id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL UNIQUE,
                "lastObjectId" INTEGER NOT NULL DEFAULT 0, "lastKey" INTEGER NOT NULL DEFAULT 0) STRICT;
            CREATE TABLE \(TableLayout.mixedTable) (
                \(TableLayout.mixedContainerColumn) INTEGER NOT NULL, \(TableLayout.positionColumn) INTEGER,
                \(TableLayout.keyColumn) TEXT, \(TableLayout.tagColumn) INTEGER NOT NULL,
                \(TableLayout.valueColumn) ANY) STRICT;
            """)
        try db.execute(sql: mixedIndexSQL)
        try db.execute(sql: mixedLinkIndexSQL)
        try db.execute(
            sql: "INSERT INTO \(TableLayout.metaTable) (\"key\", \"value\") VALUES ('formatVersion', ?), ('lastMixedContainer', 0)",
            arguments: [formatVersion])
        for type in schema.types { try createTables(for: type, in: db) }
        try storeSchema(schema, in: db)
    }

    /// Creates the tables of one type and registers it in the types table.
    static func createTables(for type: ObjectSchema, in db: Database) throws {
        let object = objectTableSQL(for: type)
        try db.execute(sql: object.table)
        for index in object.indexes { try db.execute(sql: index) }
        for property in type.storedProperties where property.type.isCollection {
            for statement in collectionTableSQL(type.name, property) { try db.execute(sql: statement) }
        }
        try register(type.name, in: db)
    }

    /// The statement creating the index that finds a nested mixed container's entries.
    static let mixedIndexSQL = """
        CREATE INDEX \(TableLayout.quote("#mixed#container")) ON \(TableLayout.mixedTable) \
        (\(TableLayout.mixedContainerColumn), \(TableLayout.positionColumn), \(TableLayout.keyColumn))
        """

    /// The statement creating the index that finds the links to an object held in nested mixed containers.
    static let mixedLinkIndexSQL = linkIndexSQL(
        name: "#mixed#link", table: TableLayout.mixedTable, tag: TableLayout.tagColumn, value: TableLayout.valueColumn)

    /// A partial index on the mixed values of one column pair that are links (`MixedTag.linkTerm`),
    /// so that deleting an object finds the mixed values linking to it without scanning the table;
    /// other mixed values stay out of it and cost nothing to insert.
    static func linkIndexSQL(name: String, table: String, tag: String, value: String) -> String {
        "CREATE INDEX \(TableLayout.quote(name)) ON \(table)(\(tag), \(value)) WHERE \(MixedTag.linkTerm(tag))"
    }

    /// The link index of a mixed property or a collection of mixed values (`nil` for any other
    /// property): on the object table's value and tag columns, or on the collection table's.
    static func linkIndexSQL(_ typeName: String, _ property: Property) -> String? {
        let name = linkIndexName(typeName, property)
        if property.type == .mixed {
            return linkIndexSQL(
                name: name, table: TableLayout.objectTable(typeName), tag: TableLayout.tagColumn(property.name),
                value: TableLayout.column(property.name))
        }
        guard property.type.isCollection, property.type.element == .mixed else { return nil }
        return linkIndexSQL(
            name: name, table: TableLayout.collectionTable(typeName, property.name), tag: TableLayout.tagColumn,
            value: TableLayout.valueColumn)
    }

    static func linkIndexName(_ typeName: String, _ property: Property) -> String { "\(typeName).\(property.name)#link" }

    /// Gives a type its row in the types table (its stable id and counters), unless it has one.
    static func register(_ typeName: String, in db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO \(TableLayout.typesTable) (\"name\") VALUES (?)", arguments: [typeName])
    }

    /// The statement creating a type's object table and those creating its indexes: every realm, new
    /// or migrated, lays a type out exactly so (copies between realms rely on the column order).
    static func objectTableSQL(for type: ObjectSchema) -> (table: String, indexes: [String]) {
        var columns = ["\(TableLayout.idColumn) INTEGER PRIMARY KEY"]
        var indexes: [String] = []
        let table = TableLayout.objectTable(type.name)
        for property in type.storedProperties where !property.type.isCollection {
            let column = TableLayout.column(property.name)
            columns.append("\(column) \(TableLayout.sqlType(property.type))")
            if let linkIndex = linkIndexSQL(type.name, property) {
                columns.append("\(TableLayout.tagColumn(property.name)) INTEGER NOT NULL DEFAULT 0")
                indexes.append(linkIndex)
            }
            let indexName = TableLayout.quote("\(type.name).\(property.name)#index")
            if property.name == type.primaryKey {
                indexes.append("CREATE UNIQUE INDEX \(indexName) ON \(table)(\(column))")
            } else if property.isIndexed || property.type.objectTypeName != nil {
                indexes.append("CREATE INDEX \(indexName) ON \(table)(\(column))")
            }
        }
        return ("CREATE TABLE \(table) (\(columns.joined(separator: ", "))) STRICT", indexes)
    }

    /// The statements creating one collection property's table and its indexes.
    static func collectionTableSQL(_ typeName: String, _ property: Property) -> [String] {
        guard let element = property.type.element else { return [] }
        let table = TableLayout.collectionTable(typeName, property.name)
        let owner = TableLayout.ownerColumn
        let value = TableLayout.valueColumn
        let tagged = element == .mixed
        let valueColumns = "\(value) \(TableLayout.sqlType(element))"
            + (tagged ? ", \(TableLayout.tagColumn) INTEGER NOT NULL DEFAULT 0" : "")
        var statements: [String]
        switch property.type {
        case .list:
            statements = ["""
                CREATE TABLE \(table) (\(owner) INTEGER NOT NULL, \(TableLayout.positionColumn) INTEGER NOT NULL,
                \(valueColumns), PRIMARY KEY (\(owner), \(TableLayout.positionColumn))) WITHOUT ROWID, STRICT
                """]
        case .map:
            statements = ["""
                CREATE TABLE \(table) (\(owner) INTEGER NOT NULL, \(TableLayout.keyColumn) TEXT NOT NULL,
                \(valueColumns), PRIMARY KEY (\(owner), \(TableLayout.keyColumn))) WITHOUT ROWID, STRICT
                """]
        default:
            statements = [
                "CREATE TABLE \(table) (\(owner) INTEGER NOT NULL, \(valueColumns)) STRICT",
                "CREATE INDEX \(TableLayout.quote("\(typeName).\(property.name)#owner")) ON \(table)(\(owner))",
            ]
        }
        if element.objectTypeName != nil {
            statements.append("CREATE INDEX \(TableLayout.quote("\(typeName).\(property.name)#value")) ON \(table)(\(value))")
        }
        if let linkIndex = linkIndexSQL(typeName, property) { statements.append(linkIndex) }
        return statements
    }

    static func storeSchema(_ schema: Schema, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO \(TableLayout.metaTable) (\"key\", \"value\") VALUES ('schema', ?), ('schemaVersion', ?)",
            arguments: [schema.yaml, schema.version])
    }

    /// The schema stored in the realm.
    static func storedSchema(_ db: Database) throws -> Schema {
        guard let text = try String.fetchOne(db, sql: "SELECT \"value\" FROM \(TableLayout.metaTable) WHERE \"key\" = 'schema'")
        else {
            throw KuraError.store(.corruptRealm, "the realm has no stored schema")
        }
        do {
            return try Schema(storedYAML: text)
        } catch {
            throw KuraError.store(.corruptRealm, "the realm's stored schema cannot be read: \(error)", underlying: error)
        }
    }

    static func typeIds(_ db: Database) throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT \"id\", \"name\" FROM \(TableLayout.typesTable)") {
            guard let name = row["name"] as String?, let id = row["id"] as Int64? else {
                throw KuraError.store(.corruptRealm, "the types table holds a row without a name or id")
            }
            ids[name] = id
        }
        return ids
    }
}
