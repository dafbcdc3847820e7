/// The PostgreSQL engine's snapshot: a session inside a repeatable-read transaction (or the open
/// write transaction) and the schema catalog its tables are laid out by.
struct PostgresSnapshot: RelationalSnapshot {
    typealias Query = ObjectQuery

    let session: PostgresSession
    let catalog: SchemaCatalog

    func reading(by catalog: SchemaCatalog) -> any RelationalSnapshot {
        PostgresSnapshot(session: session, catalog: catalog)
    }

    var schemaStore: any RelationalSchemaStore { PostgresSchemaStore(session: session) }

    private var objects: PostgresObjectReader { PostgresObjectReader(session: session, catalog: catalog) }

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
        guard let keyProperty = type.primaryKeyProperty, let stored = ScalarCodec.cell(key, as: keyProperty.type.nonOptional),
            let lookup = try catalog.statements(for: type.name).lookup
        else { return nil }
        return try session.value(lookup.sql, [PostgresLayout.stored(stored)])?.objectId
    }

    func primaryKeys(of type: ObjectSchema, ids: [Int64]) throws -> [Int64: Value] {
        guard let key = type.primaryKeyProperty else { return [:] }
        let sql = "SELECT \(TableLayout.column(key.name)) FROM \(TableLayout.objectTable(type.name)) WHERE \(TableLayout.idColumn) = $1"
        var keys: [Int64: Value] = [:]
        for id in ids {
            if let cell = try session.rows(sql, [.integer(id)]).first?.first { keys[id] = try objects.decode(cell, tag: nil, as: key.type) }
        }
        return keys
    }

    func objectCount(of type: String) throws -> Int {
        Int(try session.value("SELECT count(*) FROM \(TableLayout.objectTable(type))")?.objectId ?? 0)
    }

    func holdsObjects(of type: String) throws -> Bool {
        try session.value("SELECT 1 FROM \(TableLayout.objectTable(type)) LIMIT 1") != nil
    }

    func forEachObjectId(of type: ObjectSchema, byPrimaryKey: Bool, _ body: (Int64) throws -> Void) throws {
        // SQLite orders nulls first; a nullable key orders so here too.
        let order = byPrimaryKey ? type.primaryKey.map { TableLayout.column($0) + " NULLS FIRST, " } ?? "" : ""
        let rows = try session.rows("SELECT \(TableLayout.idColumn) FROM \(TableLayout.objectTable(type.name)) ORDER BY \(order)\(TableLayout.idColumn)")
        for row in rows { if let id = row.first?.objectId { try body(id) } }
    }

    func autoIncrementCounter(of type: ObjectSchema) throws -> (last: Int64, highest: Int64)? {
        guard let key = type.primaryKeyProperty, key.isAutoIncrement else { return nil }
        let last = try session.value("SELECT \"lastKey\" FROM \(TableLayout.typesTable) WHERE \"name\" = $1", [.text(type.name)])
        let highest = try session.value("SELECT max(\(TableLayout.column(key.name))) FROM \(TableLayout.objectTable(type.name))")
        return (last?.objectId ?? 0, highest?.objectId ?? 0)
    }

    func ids(matching query: ObjectQuery) throws -> [Int64] {
        try query.matchingIds(session)
    }

    func ids(matching query: ObjectQuery, limit: Int, offset: Int) throws -> [Int64] {
        try query.matchingIds(session, limit: limit, offset: offset)
    }

    func count(matching query: ObjectQuery) throws -> Int {
        try query.count(session)
    }

    func page(matching query: ObjectQuery, limit: Int) throws -> (ids: [Int64], next: QueryCursor?) {
        try query.page(session, limit: limit)
    }

    /// The change log's version: every commit that changed anything logs one, whichever process made it.
    func storageVersion() throws -> Int64 {
        try changeLogVersion()
    }

    func changeLogVersion() throws -> Int64 {
        try PostgresChangeLog.currentVersion(session)
    }

    func changes(after version: Int64, limit: Int, schema: Schema) throws -> [RealmChange] {
        try PostgresChangeLog(session: session, schema: schema).changes(after: version, limit: limit)
    }

    func blocks(of size: Int64) -> any ObjectBlockReading {
        PostgresBlockReader(session: session, catalog: catalog, blockSize: Self.streamBlock(size))
    }

    func linkCensus(owners: Set<String>?, blockSize: Int64) throws -> any IncomingLinkCounting {
        try PostgresLinkCensus(session: session, catalog: catalog, owners: owners, blockSize: Self.streamBlock(blockSize))
    }

    /// The block a stream reads at once: a whole realm's or type's stream reads more ids per query
    /// than SQLite's, since each query is a round trip to the server; a small selection stays small.
    private static func streamBlock(_ size: Int64) -> Int64 {
        size >= ObjectBlocks.defaultSize ? ObjectBlocks.defaultSize * 8 : size
    }

    func typesReachable(from type: String) throws -> [String] {
        try PostgresLinkCensus.typesReachable(from: type, session: session, catalog: catalog)
    }
}
