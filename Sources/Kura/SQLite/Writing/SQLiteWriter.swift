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
    /// Each type's counters by `StoredType.index`, read on first use.
    @exclusivity(unchecked) private var counters: [TypeCounters?]
    private var lastMixedContainer: Int64?
    /// Per type, no stored integer primary key is above this (see `keyCeiling`).
    @exclusivity(unchecked) private var keyCeilings: [Int64?]
    private var hasKeyCeilings = false
    /// Prepared write statements, by `WriteStatements` slot.
    private var prepared: [DirectStatement?]
    /// Inserts held back to be written in batches, when `holdInserts()` turned that on.
    private var bulk: BulkInserts?
    /// The statements that unlink one object from mixed values, made on first use.
    private var mixedLinksById: [MixedLinkStatement]?

    init(db: Database, catalog: SchemaCatalog) {
        connection = db
        self.catalog = catalog
        let typeCount = catalog.storedTypes.count
        counters = Array(repeating: nil, count: typeCount)
        keyCeilings = Array(repeating: nil, count: typeCount)
        prepared = Array(repeating: nil, count: catalog.writeStatementCount)
    }

    /// The transaction's connection, with every held insert written first, so that whatever runs
    /// on it sees them.
    var db: Database {
        get throws {
            try bulk?.flush()
            // Whatever runs on it may write keys past a ceiling.
            if hasKeyCeilings {
                for index in keyCeilings.indices { keyCeilings[index] = nil }
                hasKeyCeilings = false
            }
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
        if case .integer(let number) = key, let ceiling = keyCeilings[type.index], number > ceiling {
            keyCeilings[type.index] = number
        }
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
        if case .integer(let number) = key, let ceiling = try keyCeiling(type), number > ceiling { return nil }
        return try statement(lookup).fetchInt64([key.databaseValue])
    }

    /// The highest integer primary key `type`'s table holds, or `Int64.min` when it holds none;
    /// `nil` for types whose keys are not integers. Read once, then raised as keys are inserted,
    /// until the connection is used some other way (`db`).
    private func keyCeiling(_ type: StoredType) throws -> Int64? {
        if let ceiling = keyCeilings[type.index] { return ceiling }
        guard let key = type.key, case .int = key.scalarType else { return nil }
        // On the connection, not `db`: that would forget the other types' ceilings. Held rows are
        // not in the table yet; their keys count.
        let sql = "SELECT max(\(TableLayout.column(key.name))) FROM \(TableLayout.objectTable(type.name))"
        let stored = try Int64.fetchOne(connection.cachedStatement(sql: sql)) ?? Int64.min
        let ceiling = max(stored, bulk?.highestIntegerKey(of: type.name) ?? Int64.min)
        keyCeilings[type.index] = ceiling
        hasKeyCeilings = true
        return ceiling
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
        var counters = try self.counters(of: index)
        let (next, overflow) = counters.lastObjectId.addingReportingOverflow(1)
        if overflow {
            let name = catalog.storedTypes[index].name
            throw Self.exhausted("the object id counter of \(name) (#types.lastObjectId)", "\(name) objects")
        }
        counters.lastObjectId = next
        counters.isDirty = true
        self.counters[index] = counters
        return next
    }

    func nextAutoIncrementKey(ofType index: Int) throws -> Int64 {
        var counters = try self.counters(of: index)
        let (next, overflow) = counters.lastKey.addingReportingOverflow(1)
        if overflow {
            let name = catalog.storedTypes[index].name
            throw Self.exhausted("the autoIncrement counter of \(name) (#types.lastKey)", "\(name) keys")
        }
        counters.lastKey = next
        counters.isDirty = true
        self.counters[index] = counters
        return next
    }

    func noteExplicitKey(_ key: Int64, ofType index: Int) throws {
        var counters = try self.counters(of: index)
        if key > counters.lastKey {
            counters.lastKey = key
            counters.isDirty = true
            self.counters[index] = counters
        }
    }

    func nextMixedContainer() throws -> Int64 {
        let current: Int64
        if let cached = lastMixedContainer {
            current = cached
        } else {
            current = try Int64.fetchOne(
                connection, sql: "SELECT \"value\" FROM \(TableLayout.metaTable) WHERE \"key\" = 'lastMixedContainer'") ?? 0
        }
        let (next, overflow) = current.addingReportingOverflow(1)
        if overflow { throw Self.exhausted("the container counter (#meta.lastMixedContainer)", "nested mixed lists or maps") }
        lastMixedContainer = next
        return next
    }

    /// The error for a counter that stands at Int64.max, so that no more `what` can be created.
    static func exhausted(_ counter: String, _ what: String) -> KuraError {
        KuraError.store(.counterExhausted, "\(counter) has reached Int64.max: no more \(what) can be created")
    }

    func objectIdFloors() throws -> [String: Int64] {
        var floors: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT \"name\", \"lastObjectId\" FROM \(TableLayout.typesTable)") {
            if let name = row[0] as String?, let last = row[1] as Int64? { floors[name] = last }
        }
        // Ids handed out in this transaction, not yet in the table, are taken too.
        for (index, type) in catalog.storedTypes.enumerated() {
            if let handedOut = counters[index]?.lastObjectId { floors[type.name] = max(floors[type.name] ?? 0, handedOut) }
        }
        return floors
    }

    func flush() throws {
        try bulk?.flush()
        for (index, type) in catalog.storedTypes.enumerated() {
            guard let counters = counters[index], counters.isDirty else { continue }
            try db.execute(
                sql: "UPDATE \(TableLayout.typesTable) SET \"lastObjectId\" = ?, \"lastKey\" = ? WHERE \"name\" = ?",
                arguments: [counters.lastObjectId, counters.lastKey, type.name])
            self.counters[index]?.isDirty = false
        }
        if let lastMixedContainer {
            try db.execute(
                sql: "UPDATE \(TableLayout.metaTable) SET \"value\" = ? WHERE \"key\" = 'lastMixedContainer'",
                arguments: [lastMixedContainer])
        }
    }

    var counterMark: any Sendable { CounterMark(counters: counters, container: lastMixedContainer) }

    func restoreCounters(_ mark: any Sendable) {
        guard let mark = mark as? CounterMark else { return }
        counters = mark.counters
        lastMixedContainer = mark.container
    }

    /// The counters handed out so far, to take back with a trial.
    private struct CounterMark: Sendable {
        let counters: [TypeCounters?]
        let container: Int64?
    }

    /// The counters of the type at `index`, read from the types table the first time.
    private func counters(of index: Int) throws -> TypeCounters {
        if let loaded = counters[index] { return loaded }
        let type = catalog.storedTypes[index].name
        guard
            let row = try Row.fetchOne(
                connection, sql: "SELECT \"lastObjectId\", \"lastKey\" FROM \(TableLayout.typesTable) WHERE \"name\" = ?",
                arguments: [type]),
            let lastObjectId = row["lastObjectId"] as Int64?, let lastKey = row["lastKey"] as Int64?
        else {
            throw KuraError.store(.corruptRealm, "the types table has no counters for '\(type)'")
        }
        let loaded = TypeCounters(lastObjectId: lastObjectId, lastKey: lastKey)
        counters[index] = loaded
        return loaded
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

/// The highest object id and autoIncrement key a type has handed out, and whether they changed.
/// A struct, changed in place in the writer's array: fetching a class instance from it for every
/// object cost a retain and a release.
struct TypeCounters: Sendable {
    var lastObjectId: Int64
    var lastKey: Int64
    var isDirty = false
}
