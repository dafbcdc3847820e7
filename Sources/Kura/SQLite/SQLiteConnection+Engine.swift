import GRDB

/// The SQLite connection as the realm's engine: its transactions hand out the SQLite snapshot,
/// schema store and writer, and its write transactions keep the change log.
extension SQLiteConnection {
    var notARealm: KuraError {
        RealmFile.notARealm(location.path, "it is an SQLite database without Kura's tables")
    }

    func readingSchema<T>(_ body: (any RelationalSchemaStore) throws -> T) throws -> T {
        try snapshot { db in try body(SQLiteSchemaStore(db: db)) }
    }

    /// Runs `body` in an immediate write transaction.
    func writingSchema<T>(_ body: (any RelationalSchemaStore) throws -> T) throws -> T {
        try writeTransaction { db in try body(SQLiteSchemaStore(db: db)) }
    }

    func snapshot<T>(catalog: SchemaCatalog, _ body: (any RelationalSnapshot) throws -> T) throws -> T {
        try snapshot { db in try body(SQLiteSnapshot(db: db, catalog: catalog)) }
    }

    func writeTransaction<T>(
        catalog: (any RelationalSchemaStore) throws -> SchemaCatalog, _ body: (any RelationalWriter) throws -> T
    ) throws -> T {
        try writeTransaction { db in
            let catalog = try catalog(SQLiteSchemaStore(db: db))
            try changeTracker.begin(db, catalog: catalog)
            let writer = SQLiteWriter(db: db, catalog: catalog)
            let result = try body(writer)
            try writer.flush()
            try changeTracker.commit(db)
            return result
        }
    }

    /// Attaches the source's file (read-only) under `SetBasedCopy.sourceAlias` when both realms are
    /// files, and detaches it afterwards.
    func withSetBasedSource<T>(_ source: any RelationalEngine, _ body: (Bool) throws -> T) throws -> T {
        guard let source = source as? SQLiteConnection, !source.location.isInMemory, !location.isInMemory else {
            return try body(false)
        }
        let name = TableLayout.quote(SetBasedCopy.sourceAlias)
        let path = ReadOnlyConnection.readingName(source.location.path)
        try outsideTransaction(sql: "ATTACH DATABASE ? AS \(name)") { db in
            try db.execute(sql: "ATTACH DATABASE ? AS \(name)", arguments: [path])
        }
        defer {
            // Detaching fails only while a statement reads the file; every statement has finished here.
            try? queue.writeWithoutTransaction { db in try db.execute(sql: "DETACH DATABASE \(name)") }
        }
        return try body(true)
    }
}
