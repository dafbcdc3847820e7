import Foundation
import GRDB

/// Records what every committed write transaction did, in the realm file, under a version that
/// rises by one per commit: the change log that observers and other processes read.
///
/// Per commit, and per type:
/// - inserted objects are one range of object ids: from the type's `#types.lastObjectId` when the
///   transaction began to its value at commit (ids are handed out in order and never reused), so an
///   import records nothing per row;
/// - modified and deleted objects are recorded one by one, by connection-private (TEMP) triggers on
///   the object and collection tables, and by the writer for collections it rewrites; a deleted
///   object's primary key is recorded as it is deleted, since it cannot be looked up later.
///
/// Only objects that existed before the transaction count as modified or deleted: an object
/// created and changed (or deleted) by one transaction is only inserted (or nothing). A commit that
/// changed no object records nothing. The log keeps the last `historyLength` versions.
///
/// One tracker per connection; used only inside the connection's write transactions, which the
/// connection's queue runs one at a time.
final class ChangeTracker: @unchecked Sendable {
    /// How many of the latest versions the log keeps.
    static let historyLength: Int64 = 1000

    static let versionsTable = TableLayout.quote("#changes")
    static let changedTable = TableLayout.quote("#changed")
    /// Per connection: the objects the open transaction modified or deleted.
    static let pendingTable = "temp." + TableLayout.quote("#pending")
    /// Per connection: each type's last object id when the open transaction began.
    static let floorsTable = "temp." + TableLayout.quote("#floors")

    /// How a row of `#changed` describes its objects.
    enum Kind: Int64 {
        /// Objects `id...lastId` were created.
        case inserted = 0
        case modified = 1
        /// Object `id` was deleted; `key` holds its primary key.
        case deleted = 2
    }

    /// The schema the connection's triggers were made for, once a transaction that made them committed.
    private var triggersSchema: Schema?
    /// Whether a committed transaction found or made the log's tables.
    private var hasTables = false
    /// What the open transaction made, confirmed by `commit`: a rollback undoes it.
    private var madeInTransaction: (schema: Schema?, tables: Bool) = (nil, false)

    /// Creates the connection's own (TEMP) tables, once, outside any transaction so that no
    /// rollback removes them.
    static func prepareConnection(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS \(TableLayout.quote("#pending")) (
                "type" TEXT NOT NULL, "id" INTEGER NOT NULL, "kind" INTEGER NOT NULL, "key" ANY,
                PRIMARY KEY ("type", "id")) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS \(TableLayout.quote("#floors")) (
                "type" TEXT PRIMARY KEY NOT NULL, "last" INTEGER NOT NULL) WITHOUT ROWID;
            """)
    }

    /// Creates the log's tables if the realm has none yet (a realm made before change tracking).
    static func installTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(versionsTable) (
                "version" INTEGER PRIMARY KEY, "time" REAL NOT NULL, "schemaChanged" INTEGER NOT NULL DEFAULT 0) STRICT;
            CREATE TABLE IF NOT EXISTS \(changedTable) (
                "version" INTEGER NOT NULL, "type" TEXT NOT NULL, "kind" INTEGER NOT NULL, "id" INTEGER NOT NULL,
                "lastId" INTEGER, "key" ANY, PRIMARY KEY ("version", "type", "kind", "id")) STRICT, WITHOUT ROWID;
            """)
    }

    /// Whether the realm holds the log's tables.
    static func hasTables(_ db: Database) throws -> Bool {
        // Not GRDB's `tableExists`: it caches its answer, and another process may create the tables.
        try Int.fetchOne(db.cachedStatement(
            sql: "SELECT count(*) FROM sqlite_master WHERE \"type\" = 'table' AND \"name\" IN ('#changes', '#changed')")) == 2
    }

    /// Readies tracking at the start of a write transaction: the log's tables, this connection's
    /// triggers for `catalog`, and the types' last object ids.
    func begin(_ db: Database, catalog: SchemaCatalog) throws {
        madeInTransaction = (nil, false)
        if !hasTables {
            if try !Self.hasTables(db) { try Self.installTables(db) }
            madeInTransaction.tables = true
        }
        if triggersSchema != catalog.schema {
            try installTriggers(db, catalog)
            madeInTransaction.schema = catalog.schema
        }
        try db.cachedStatement(sql: "DELETE FROM \(Self.pendingTable)").execute()
        try db.cachedStatement(sql: "DELETE FROM \(Self.floorsTable)").execute()
        try db.cachedStatement(sql: """
            INSERT INTO \(Self.floorsTable) ("type", "last") SELECT "name", "lastObjectId" FROM \(TableLayout.typesTable)
            """).execute()
    }

    /// Notes that the existing object `id` of `type` changed in a way no trigger sees (rows
    /// inserted into its collections).
    static func noteModified(_ type: String, id: Int64, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO \(pendingTable) ("type", "id", "kind", "key") VALUES (?, ?, \(Kind.modified.rawValue), NULL)
            ON CONFLICT DO NOTHING
            """).execute(arguments: [type, id])
    }

    /// Writes the open transaction's changes to the log under the next version, just before commit;
    /// returns that version, or `nil` when no object changed.
    @discardableResult
    func commit(_ db: Database, schemaChanged: Bool = false) throws -> Int64? {
        // Only a commit keeps what `begin` made; a rollback leaves them to be made again.
        if madeInTransaction.tables { hasTables = true }
        if let schema = madeInTransaction.schema { triggersSchema = schema }
        madeInTransaction = (nil, false)
        let version = try Self.currentVersion(db) + 1
        let floors = "(SELECT \"last\" FROM \(Self.floorsTable) AS f WHERE f.\"type\" = t.\"name\")"
        try db.cachedStatement(sql: """
            INSERT INTO \(Self.changedTable) ("version", "type", "kind", "id", "lastId", "key")
            SELECT ?1, t."name", \(Kind.inserted.rawValue), coalesce(\(floors), 0) + 1, t."lastObjectId", NULL
            FROM \(TableLayout.typesTable) AS t WHERE t."lastObjectId" > coalesce(\(floors), 0)
            """).execute(arguments: [version])
        var recorded = db.changesCount
        // The writer notes objects the transaction made itself, too: only those from before count.
        try db.cachedStatement(sql: """
            INSERT INTO \(Self.changedTable) ("version", "type", "kind", "id", "lastId", "key")
            SELECT ?1, p."type", p."kind", p."id", NULL, p."key" FROM \(Self.pendingTable) AS p
            WHERE p."id" <= coalesce((SELECT "last" FROM \(Self.floorsTable) AS f WHERE f."type" = p."type"), 0)
            """).execute(arguments: [version])
        recorded += db.changesCount
        try db.cachedStatement(sql: "DELETE FROM \(Self.pendingTable)").execute()
        guard recorded > 0 || schemaChanged else { return nil }
        try db.cachedStatement(sql: "INSERT INTO \(Self.versionsTable) (\"version\", \"time\", \"schemaChanged\") VALUES (?, ?, ?)")
            .execute(arguments: [version, Date().timeIntervalSince1970, schemaChanged])
        let horizon = version - Self.historyLength
        if horizon > 0 {
            try db.cachedStatement(sql: "DELETE FROM \(Self.changedTable) WHERE \"version\" <= ?").execute(arguments: [horizon])
            try db.cachedStatement(sql: "DELETE FROM \(Self.versionsTable) WHERE \"version\" <= ?").execute(arguments: [horizon])
        }
        return version
    }

    /// The latest version in the log; 0 before the first commit that changed anything.
    static func currentVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(\"version\") FROM \(versionsTable)")) ?? 0
    }

    /// Records a change of schema (an additive change or a migration) in its own transaction's
    /// log entry: readers must read everything again, object changes are not listed.
    static func recordSchemaChange(_ db: Database) throws {
        if try !hasTables(db) { try installTables(db) }
        let version = try currentVersion(db) + 1
        try db.execute(
            sql: "INSERT INTO \(versionsTable) (\"version\", \"time\", \"schemaChanged\") VALUES (?, ?, 1)",
            arguments: [version, Date().timeIntervalSince1970])
    }

    // MARK: Triggers

    /// Replaces the connection's triggers with ones for `catalog`'s tables.
    private func installTriggers(_ db: Database, _ catalog: SchemaCatalog) throws {
        let old = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_temp_master WHERE type = 'trigger' AND name LIKE 'kura#%'")
        for name in old { try db.execute(sql: "DROP TRIGGER temp.\(TableLayout.quote(name))") }
        var number = 0
        func create(_ event: String, on table: String, owner: String, type: String, kind: Kind, key: String = "NULL") throws {
            number += 1
            let literal = "'" + type.replacingOccurrences(of: "'", with: "''") + "'"
            let conflict = kind == .deleted
                ? "ON CONFLICT DO UPDATE SET \"kind\" = excluded.\"kind\", \"key\" = excluded.\"key\""
                : "ON CONFLICT DO NOTHING"
            try db.execute(sql: """
                CREATE TEMP TRIGGER \(TableLayout.quote("kura#\(number)")) AFTER \(event) ON main.\(table)
                WHEN \(owner) <= (SELECT "last" FROM \(TableLayout.quote("#floors")) WHERE "type" = \(literal))
                BEGIN
                    INSERT INTO \(TableLayout.quote("#pending")) ("type", "id", "kind", "key")
                    VALUES (\(literal), \(owner), \(kind.rawValue), \(key)) \(conflict);
                END
                """)
        }
        for type in catalog.schema.types {
            let table = TableLayout.objectTable(type.name)
            let id = TableLayout.idColumn
            let key = type.primaryKey.map { "OLD." + TableLayout.column($0) } ?? "NULL"
            try create("UPDATE", on: table, owner: "OLD.\(id)", type: type.name, kind: .modified)
            try create("DELETE", on: table, owner: "OLD.\(id)", type: type.name, kind: .deleted, key: key)
            for property in type.storedProperties where property.type.isCollection {
                let collection = TableLayout.collectionTable(type.name, property.name)
                let owner = TableLayout.ownerColumn
                try create("UPDATE", on: collection, owner: "NEW.\(owner)", type: type.name, kind: .modified)
                try create("DELETE", on: collection, owner: "OLD.\(owner)", type: type.name, kind: .modified)
            }
        }
    }
}
