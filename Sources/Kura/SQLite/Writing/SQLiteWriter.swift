import Foundation
import GRDB

/// The SQLite engine's side of one write transaction: the connection, the rows staged for it and
/// the statements that insert them, inserts held for batches, the identifier counters, key lookups
/// and savepoints. Used by one thread at a time: its per-type arrays, reached for every object,
/// skip Swift's run-time exclusivity checks (`@exclusivity(unchecked)`).
final class SQLiteWriter: RelationalWriter {
    /// The connection, without writing held inserts first: for statements that cannot see them.
    private let connection: Database
    let catalog: SchemaCatalog
    /// Where the writer builds rows before they are inserted.
    let stage = RowStage()
    /// The identifier counters, read on first use.
    @exclusivity(unchecked) private var counters: IdentifierCounters
    /// The highest integer key of each type, read on first use.
    @exclusivity(unchecked) private var keyCeilings: KeyCeilings
    /// Prepared write statements, by `WriteStatements` slot.
    private var prepared: [DirectStatement?]
    /// Inserts held back to be written in batches, when `holdInserts()` turned that on.
    private var bulk: BulkInserts?
    /// The statements that unlink one object from mixed values, made on first use.
    private var mixedLinksById: [MixedLinkStatement]?

    init(db: Database, catalog: SchemaCatalog) {
        connection = db
        self.catalog = catalog
        counters = IdentifierCounters(catalog: catalog)
        keyCeilings = KeyCeilings(typeCount: catalog.storedTypes.count)
        prepared = Array(repeating: nil, count: catalog.writeStatementCount)
    }

    /// The transaction's connection, with every held insert written first, so that whatever runs
    /// on it sees them.
    var db: Database {
        get throws {
            try bulk?.flush()
            // Whatever runs on it may write keys past a ceiling.
            keyCeilings.forget()
            return connection
        }
    }

    func snapshot(by catalog: SchemaCatalog) throws -> any RelationalSnapshot {
        SQLiteSnapshot(db: try db, catalog: catalog)
    }

    func copySetBased(
        from source: SchemaCatalog, findsUnkeyedObjects: Bool, onProgress: ((Int, Int?) -> Void)?
    ) throws -> [String: ChangeCounts]? {
        var copy = SetBasedCopy(source: source, destination: catalog, db: try db)
        copy.onProgress = onProgress
        copy.findsUnkeyedObjects = findsUnkeyedObjects
        return try copy.runIfApplicable()
    }

    /// From now on inserts are held and written in batches (`BulkInserts`). Only for a writer that
    /// reaches the database through this transaction alone, as an import does: a query run on the
    /// connection some other way would not see the rows held.
    func holdInserts() throws {
        if bulk == nil { bulk = try BulkInserts(connection: connection, catalog: catalog) }
    }

    /// Whether inserts are held (`holdInserts()`).
    var holdsInserts: Bool { bulk != nil }

    /// Inserts rows with `slot`, or holds them for `bulkInsert` when inserts are held: the staged
    /// cells in `range`, row after row.
    func insert(_ slot: WriteStatements.Slot, bulk bulkInsert: WriteStatements.BulkInsert?, cells range: Range<Int>) throws {
        if let bulk, let bulkInsert {
            try bulk.append(bulkInsert, from: stage, cells: range)
        } else {
            try statement(slot).execute(from: stage, cells: range)
        }
    }

    /// Notes the primary key of an object just inserted, which a held insert keeps out of the
    /// table until its batch is written.
    func noteInsertedKey(_ key: StoredCell, of type: StoredType, id: Int64) {
        bulk?.noteKey(key, of: type.name, id: id)
        keyCeilings.raise(type, to: key)
    }

    /// The prepared statement of `slot`, prepared on first use.
    private func statement(_ slot: WriteStatements.Slot) throws -> DirectStatement {
        if let statement = prepared[slot.index] { return statement }
        let statement = try DirectStatement(connection, sql: slot.sql)
        prepared[slot.index] = statement
        return statement
    }

    /// The id of the `type` object whose primary key column holds `key`. Held objects of the type
    /// are found by their noted keys, so the lookup needs no batch written; an integer key above
    /// every stored one needs no lookup at all.
    func objectId(_ type: StoredType, key: StoredCell) throws -> Int64? {
        guard let lookup = type.statements.lookup else { return nil }
        if let held = bulk?.id(of: type.name, key: key) { return held }
        if try keyCeilings.isAbove(key, of: type, highest: { try highestKey(type, $0) }) { return nil }
        return try statement(lookup).fetchInt64([key.databaseValue])
    }

    /// The highest integer primary key `type`'s table and held rows hold, if any. On the connection,
    /// not `db`: that would forget the other types' ceilings. Held rows are not in the table yet;
    /// their keys count.
    private func highestKey(_ type: StoredType, _ key: StoredProperty) throws -> Int64? {
        let sql = "SELECT max(\(TableLayout.column(key.name))) FROM \(TableLayout.objectTable(type.name))"
        let stored = try Int64.fetchOne(connection.cachedStatement(sql: sql))
        return max(stored ?? Int64.min, bulk?.highestIntegerKey(of: type.name) ?? Int64.min)
    }

    /// Sets one column (and a mixed property's tag). Bound by `DirectStatement`, with each text's
    /// length: GRDB binds a string up to its first NUL.
    func setColumn(_ ref: ObjectRef, _ property: Property, _ value: StoredCell, tag: Int64?) throws {
        let table = TableLayout.objectTable(ref.type)
        if let tag {
            try DirectStatement(db, sql: """
                UPDATE \(table) SET \(TableLayout.column(property.name)) = ?, \(TableLayout.tagColumn(property.name)) = ?
                WHERE \(TableLayout.idColumn) = ?
                """, cached: true).execute([value.databaseValue, tag.databaseValue, ref.id.databaseValue])
        } else {
            try DirectStatement(
                db, sql: "UPDATE \(table) SET \(TableLayout.column(property.name)) = ? WHERE \(TableLayout.idColumn) = ?", cached: true
            ).execute([value.databaseValue, ref.id.databaseValue])
        }
    }

    // MARK: Counters

    func nextObjectId(ofType index: Int) throws -> Int64 {
        try counters.nextObjectId(ofType: index, read: storedCounters)
    }

    func nextAutoIncrementKey(ofType index: Int) throws -> Int64 {
        try counters.nextAutoIncrementKey(ofType: index, read: storedCounters)
    }

    func noteExplicitKey(_ key: Int64, ofType index: Int) throws {
        try counters.noteExplicitKey(key, ofType: index, read: storedCounters)
    }

    func nextMixedContainer() throws -> Int64 {
        try counters.nextMixedContainer {
            try Int64.fetchOne(connection, sql: "SELECT \"value\" FROM \(TableLayout.metaTable) WHERE \"key\" = 'lastMixedContainer'") ?? 0
        }
    }

    func objectIdFloors() throws -> [String: Int64] {
        var floors: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT \"name\", \"lastObjectId\" FROM \(TableLayout.typesTable)") {
            if let name = row[0] as String?, let last = row[1] as Int64? { floors[name] = last }
        }
        // Ids handed out in this transaction, not yet in the table, are taken too.
        return counters.raising(floors)
    }

    func flush() throws {
        try bulk?.flush()
        let db = try self.db
        try counters.writeChanged { name, lastObjectId, lastKey in
            try db.execute(
                sql: "UPDATE \(TableLayout.typesTable) SET \"lastObjectId\" = ?, \"lastKey\" = ? WHERE \"name\" = ?",
                arguments: [lastObjectId, lastKey, name])
        }
        if let lastMixedContainer = counters.lastMixedContainer {
            try db.execute(
                sql: "UPDATE \(TableLayout.metaTable) SET \"value\" = ? WHERE \"key\" = 'lastMixedContainer'",
                arguments: [lastMixedContainer])
        }
    }

    var counterMark: any Sendable { counters.mark }

    func restoreCounters(_ mark: any Sendable) {
        counters.restore(mark)
    }

    /// The stored counters of the type at `index`, from the types table.
    private func storedCounters(of index: Int) throws -> TypeCounters {
        let type = catalog.storedTypes[index].name
        guard
            let row = try Row.fetchOne(
                connection, sql: "SELECT \"lastObjectId\", \"lastKey\" FROM \(TableLayout.typesTable) WHERE \"name\" = ?",
                arguments: [type]),
            let lastObjectId = row["lastObjectId"] as Int64?, let lastKey = row["lastKey"] as Int64?
        else {
            throw KuraError.store(.corruptRealm, "the types table has no counters for '\(type)'")
        }
        return TypeCounters(lastObjectId: lastObjectId, lastKey: lastKey)
    }

    // MARK: Savepoints

    // Held rows are written when a savepoint opens and when it is released, so every row held
    // after it is either rolled back or dropped with it, and no other's.

    func begin(_ savepoint: WriteSavepoint) throws {
        try db.cachedStatement(sql: "SAVEPOINT \(Self.name(savepoint))").execute()
    }

    func release(_ savepoint: WriteSavepoint) throws {
        try db.cachedStatement(sql: "RELEASE \(Self.name(savepoint))").execute()
    }

    func rollBack(to savepoint: WriteSavepoint) throws {
        bulk?.discard()
        try connection.cachedStatement(sql: "ROLLBACK TO \(Self.name(savepoint))").execute()
        try connection.cachedStatement(sql: "RELEASE \(Self.name(savepoint))").execute()
    }

    private static func name(_ savepoint: WriteSavepoint) -> String {
        switch savepoint {
        case .change: "kura_change"
        case .trial: "kura_trial"
        }
    }

    func isStoreFailure(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return KuraError.database(error, sql: nil).isStoreFailure
    }

    /// The statements that unlink one object (by tag and id) from mixed values.
    var mixedLinksByObject: [MixedLinkStatement] {
        if let made = mixedLinksById { return made }
        let made = MixedLinkStatement.all(catalog, matchingId: true)
        mixedLinksById = made
        return made
    }
}
