import Foundation

/// Records what every committed write transaction did in a PostgreSQL realm's change log, under a
/// version that rises by one per commit, as the SQLite engine's tracker does: inserted objects as
/// ranges of ids (from each type's last object id when the transaction began), modified and
/// deleted objects one by one, found by triggers on the object and collection tables.
///
/// Writers take turns (the engine's advisory lock), so the triggers' bookkeeping lives in two
/// ordinary tables that only the writer holding the lock uses: `#floors` (each type's last id when
/// its transaction began) and `#pending` (what it changed so far). Triggers are installed with the
/// layout and made again when the layout changes (`#meta`'s `trackedLayout`).
final class PostgresChangeTracker: Sendable {
    /// How many of the latest versions the log keeps.
    static let historyLength: Int64 = 1000

    static let pendingTable = TableLayout.quote("#pending")
    static let floorsTable = TableLayout.quote("#floors")

    /// How a row of `#changed` describes its objects.
    enum Kind: Int64 {
        case inserted = 0
        case modified = 1
        case deleted = 2
    }

    /// Creates the tables the triggers write to, if the realm has none.
    static func installTables(_ session: PostgresSession) throws {
        try session.execute("""
            CREATE TABLE IF NOT EXISTS \(pendingTable) (
                "type" text NOT NULL, "id" bigint NOT NULL, "kind" bigint NOT NULL, "key" bytea, PRIMARY KEY ("type", "id"))
            """)
        try session.execute("""
            CREATE TABLE IF NOT EXISTS \(floorsTable) ("type" text PRIMARY KEY, "last" bigint NOT NULL)
            """)
    }

    /// Readies tracking at the start of a write transaction: triggers for `catalog`'s layout, and
    /// the types' last object ids.
    func begin(_ session: PostgresSession, catalog: SchemaCatalog, layoutVersion: Int64) throws {
        let tracked = try session.value("SELECT \"value\" FROM \(TableLayout.metaTable) WHERE \"key\" = 'trackedLayout'")
        if tracked != .text(String(layoutVersion)) {
            try Self.installTables(session)
            try PostgresChangeTriggers.install(session, catalog: catalog)
            try session.execute("""
                INSERT INTO \(TableLayout.metaTable) ("key", "value") VALUES ('trackedLayout', $1)
                ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value"
                """, [.text(String(layoutVersion))])
        }
        try session.execute("DELETE FROM \(Self.pendingTable)")
        try session.execute("DELETE FROM \(Self.floorsTable)")
        try session.execute("""
            INSERT INTO \(Self.floorsTable) ("type", "last") SELECT "name", "lastObjectId" FROM \(TableLayout.typesTable)
            """)
    }

    /// Writes the open transaction's changes to the log under the next version, just before commit:
    /// what the triggers noted, and the objects `modified` in ways no trigger sees (rows inserted
    /// into their collections); returns that version, or `nil` when no object changed.
    @discardableResult
    func commit(_ session: PostgresSession, modified: [ObjectRef] = [], schemaChanged: Bool = false) throws -> Int64? {
        try Self.note(modified, session)
        let version = try PostgresChangeLog.currentVersion(session) + 1
        let floors = "(SELECT f.\"last\" FROM \(Self.floorsTable) AS f WHERE f.\"type\" = t.\"name\")"
        let inserted = try session.rows("""
            INSERT INTO \(PostgresChangeLog.changedTable) ("version", "type", "kind", "id", "lastId", "key")
            SELECT $1, t."name", \(Kind.inserted.rawValue), coalesce(\(floors), 0) + 1, t."lastObjectId", NULL
            FROM \(TableLayout.typesTable) AS t WHERE t."lastObjectId" > coalesce(\(floors), 0) RETURNING 1
            """, [.integer(version)]).count
        let changed = try session.rows("""
            INSERT INTO \(PostgresChangeLog.changedTable) ("version", "type", "kind", "id", "lastId", "key")
            SELECT $1, p."type", p."kind", p."id", NULL, p."key" FROM \(Self.pendingTable) AS p
            WHERE p."id" <= coalesce((SELECT f."last" FROM \(Self.floorsTable) AS f WHERE f."type" = p."type"), 0) RETURNING 1
            """, [.integer(version)]).count
        try session.execute("DELETE FROM \(Self.pendingTable)")
        guard inserted + changed > 0 || schemaChanged else { return nil }
        try Self.recordVersion(session, version, schemaChanged: schemaChanged)
        return version
    }

    /// Adds `refs` to `#pending` as modified, a type at a time in statements of up to a thousand ids
    /// (integers, written into the statement).
    private static func note(_ refs: [ObjectRef], _ session: PostgresSession) throws {
        var byType: [String: [Int64]] = [:]
        for ref in refs { byType[ref.type, default: []].append(ref.id) }
        for (type, ids) in byType {
            for start in stride(from: 0, to: ids.count, by: 1000) {
                let rows = ids[start..<min(start + 1000, ids.count)].map { "($1, \($0), \(Kind.modified.rawValue))" }
                try session.execute(
                    "INSERT INTO \(pendingTable) (\"type\", \"id\", \"kind\") VALUES \(rows.joined(separator: ", ")) ON CONFLICT DO NOTHING",
                    [.text(type)])
            }
        }
    }

    /// Records a change of schema in its own log entry: readers must read everything again.
    static func recordSchemaChange(_ session: PostgresSession) throws {
        try recordVersion(session, try PostgresChangeLog.currentVersion(session) + 1, schemaChanged: true)
    }

    private static func recordVersion(_ session: PostgresSession, _ version: Int64, schemaChanged: Bool) throws {
        try session.execute(
            "INSERT INTO \(PostgresChangeLog.versionsTable) (\"version\", \"time\", \"schemaChanged\") VALUES ($1, $2, $3 = 1)",
            [.integer(version), .real(Date().timeIntervalSince1970), .integer(schemaChanged ? 1 : 0)])
        let horizon = version - historyLength
        if horizon > 0 {
            try session.execute("DELETE FROM \(PostgresChangeLog.changedTable) WHERE \"version\" <= $1", [.integer(horizon)])
            try session.execute("DELETE FROM \(PostgresChangeLog.versionsTable) WHERE \"version\" <= $1", [.integer(horizon)])
        }
    }
}
