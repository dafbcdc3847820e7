import GRDB

/// The SQLite engine's snapshot: a connection inside a read transaction (or the open write
/// transaction) and the schema catalog its tables are laid out by.
struct SQLiteSnapshot: RelationalSnapshot {
    typealias Query = ObjectQuery

    /// The connection, inside the transaction the snapshot lasts for.
    let db: Database
    let catalog: SchemaCatalog

    /// The same snapshot read by another catalog, one a schema change just brought.
    func reading(by catalog: SchemaCatalog) -> any RelationalSnapshot {
        SQLiteSnapshot(db: db, catalog: catalog)
    }

    /// The realm's layout as this snapshot sees it.
    var schemaStore: any RelationalSchemaStore { SQLiteSchemaStore(db: db) }

    /// The reader of objects and their properties.
    var objects: ObjectReader { ObjectReader(db: db, catalog: catalog) }

    func objectExists(_ ref: ObjectRef) throws -> Bool {
        try objects.exists(ref)
    }

    func values(of ref: ObjectRef) throws -> [String: Value] {
        try objects.values(of: ref)
    }

    func value(of ref: ObjectRef, _ property: Property) throws -> Value {
        try objects.value(of: ref, property)
    }

    func linkingObjects(of ref: ObjectRef, _ relation: Property) throws -> [ObjectRef] {
        try objects.linkingObjects(of: ref, relation)
    }

    func objectId(of type: ObjectSchema, primaryKey key: Value) throws -> Int64? {
        guard let keyProperty = type.primaryKeyProperty, let stored = ScalarCodec.cell(key, as: keyProperty.type.nonOptional) else {
            return nil
        }
        return try objects.lookup(type, key: stored.databaseValue)
    }

    func primaryKeys(of type: ObjectSchema, ids: [Int64]) throws -> [Int64: Value] {
        guard let key = type.primaryKeyProperty else { return [:] }
        // Read with byte counts: GRDB reads text up to its first NUL, and a key may hold one.
        let statement = try DirectStatement(db, sql: """
            SELECT \(TableLayout.column(key.name)) FROM \(TableLayout.objectTable(type.name)) WHERE \(TableLayout.idColumn) = ?
            """, cached: true)
        var keys: [Int64: Value] = [:]
        for id in ids {
            try statement.forEachRow([id.databaseValue]) { row in keys[id] = try ScalarCodec.decode(row[0], as: key.type) }
        }
        return keys
    }

    func objectCount(of type: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \(TableLayout.objectTable(type))") ?? 0
    }

    func holdsObjects(of type: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(TableLayout.objectTable(type)))") ?? false
    }

    func forEachObjectId(of type: ObjectSchema, byPrimaryKey: Bool, _ body: (Int64) throws -> Void) throws {
        let order = byPrimaryKey ? type.primaryKey.map { TableLayout.column($0) + ", " } ?? "" : ""
        let ids = try Int64.fetchCursor(
            db, sql: "SELECT \(TableLayout.idColumn) FROM \(TableLayout.objectTable(type.name)) ORDER BY \(order)\(TableLayout.idColumn)")
        while let id = try ids.next() { try body(id) }
    }

    func autoIncrementCounter(of type: ObjectSchema) throws -> (last: Int64, highest: Int64)? {
        guard let key = type.primaryKeyProperty, key.isAutoIncrement else { return nil }
        let last = try Int64.fetchOne(
            db, sql: "SELECT \"lastKey\" FROM \(TableLayout.typesTable) WHERE \"name\" = ?", arguments: [type.name]) ?? 0
        let highest = try Int64.fetchOne(
            db, sql: "SELECT max(\(TableLayout.column(key.name))) FROM \(TableLayout.objectTable(type.name))") ?? 0
        return (last, highest)
    }

    func ids(matching query: ObjectQuery) throws -> [Int64] {
        try query.matchingIds(db)
    }

    func ids(matching query: ObjectQuery, limit: Int, offset: Int) throws -> [Int64] {
        try query.matchingIds(db, limit: limit, offset: offset)
    }

    func count(matching query: ObjectQuery) throws -> Int {
        try query.count(db)
    }

    func page(matching query: ObjectQuery, limit: Int) throws -> (ids: [Int64], next: QueryCursor?) {
        try query.page(db, limit: limit)
    }

    /// SQLite's `data_version`, which other connections' commits raise.
    func storageVersion() throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
    }

    func changeLogVersion() throws -> Int64 {
        try ChangeTracker.hasTables(db) ? ChangeTracker.currentVersion(db) : 0
    }

    func changes(after version: Int64, limit: Int, schema: Schema) throws -> [RealmChange] {
        try ChangeLogReader(db: db, schema: schema).changes(after: version, limit: limit)
    }

    func blocks(of size: Int64) -> any ObjectBlockReading {
        ObjectBlockReader(db: db, catalog: catalog, blockSize: size)
    }

    func linkCensus(owners: Set<String>?, blockSize: Int64) throws -> any IncomingLinkCounting {
        try LinkCensus(db: db, catalog: catalog, owners: owners, blockSize: blockSize)
    }

    func typesReachable(from type: String) throws -> [String] {
        try LinkCensus.typesReachable(from: type, db: db, catalog: catalog)
    }
}
