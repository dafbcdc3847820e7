import Foundation
import GRDB

/// The state of one write transaction: its connection, the identifier counters it hands out,
/// and counts of what it wrote. Used by one thread at a time: its per-type arrays, reached for
/// every object, skip Swift's run-time exclusivity checks (`@exclusivity(unchecked)`).
final class WriteTransaction {
    /// The connection, without writing held inserts first: for statements that cannot see them.
    private let connection: Database
    let catalog: SchemaCatalog
    /// The catalog's types as the writer uses them, kept apart so that reaching one does not copy the catalog.
    let storedTypes: [StoredType]
    /// Each type's counters by `StoredType.index`, read on first use.
    @exclusivity(unchecked) private var counters: [TypeCounters?]
    private var lastMixedContainer: Int64?
    /// What this transaction did to each type's objects.
    var counts: [String: ChangeCounts] {
        get {
            var counts: [String: ChangeCounts] = [:]
            for (type, change) in zip(storedTypes, tally) where change != ChangeCounts() { counts[type.name] = change }
            return counts
        }
        set {
            tally = storedTypes.map { newValue[$0.name] ?? ChangeCounts() }
        }
    }
    /// `counts` by `StoredType.index`, so that counting an object needs no lookup by name.
    @exclusivity(unchecked) private var tally: [ChangeCounts]
    /// Whether a migration block runs in this transaction: it may rewrite primary keys, whose
    /// uniqueness the migration checks when the block returns.
    var isMigration = false
    /// The scope `$id`/`$ref` links resolve in for the change being written, if any.
    private(set) var references: ReferenceScope?
    /// Every scope this transaction changed, with its undo mark from before the transaction.
    private var scopeMarks: [(scope: ReferenceScope, mark: Int)] = []

    /// Per type, no stored integer primary key is above this (see `keyCeiling`).
    @exclusivity(unchecked) private var keyCeilings: [Int64?]
    private var hasKeyCeilings = false

    /// Prepared write statements, by `WriteStatements` slot.
    private var prepared: [DirectStatement?]

    /// Per type, the mapper's type last found to lay its stored properties out as it does (see
    /// `sharesLayout`); held, so that no other box can take its address.
    @exclusivity(unchecked) private var layoutMatches: [ObjectSchemaBox?]

    /// Inserts held back to be written in batches, when `holdInserts()` turned that on.
    private var bulk: BulkInserts?
    /// Where the writer builds rows before they are inserted.
    let stage = RowStage()

    init(db: Database, catalog: SchemaCatalog) {
        self.connection = db
        self.catalog = catalog
        storedTypes = catalog.storedTypes
        counters = Array(repeating: nil, count: storedTypes.count)
        tally = Array(repeating: ChangeCounts(), count: storedTypes.count)
        keyCeilings = Array(repeating: nil, count: storedTypes.count)
        prepared = Array(repeating: nil, count: catalog.writeStatementCount)
        layoutMatches = Array(repeating: nil, count: storedTypes.count)
    }

    /// Whether a mapped object of `box`'s type holds its values where `type` expects them: the
    /// same stored properties in the same order. Compared once per type and box.
    func sharesLayout(_ box: ObjectSchemaBox, _ type: StoredType) -> Bool {
        if layoutMatches[type.index] === box { return true }
        guard box.schema.storedProperties == type.schema.storedProperties else { return false }
        layoutMatches[type.index] = box
        return true
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
    func noteInsertedKey(_ key: DatabaseValue, of type: StoredType, id: Int64) {
        bulk?.noteKey(key, of: type.name, id: id)
        if case .int64(let number) = key.storage, let ceiling = keyCeilings[type.index], number > ceiling {
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
    func objectId(_ type: StoredType, key: DatabaseValue) throws -> Int64? {
        guard let lookup = type.statements.lookup else { return nil }
        if let held = bulk?.id(of: type.name, key: key) { return held }
        if case .int64(let number) = key.storage, let ceiling = try keyCeiling(type), number > ceiling { return nil }
        return try statement(lookup).fetchInt64([key])
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

    /// A new internal object id for `type`: one above the highest ever handed out.
    func nextObjectId(_ type: StoredType) throws -> Int64 {
        var counters = try self.counters(of: type)
        let (next, overflow) = counters.lastObjectId.addingReportingOverflow(1)
        if overflow { throw Self.exhausted("the object id counter of \(type.name) (#types.lastObjectId)", "\(type.name) objects") }
        counters.lastObjectId = next
        counters.isDirty = true
        self.counters[type.index] = counters
        return next
    }

    /// A new autoIncrement key for `type`: one above the highest ever used.
    func nextAutoIncrementKey(_ type: StoredType) throws -> Int64 {
        var counters = try self.counters(of: type)
        let (next, overflow) = counters.lastKey.addingReportingOverflow(1)
        if overflow {
            throw Self.exhausted("the autoIncrement counter of \(type.name) (#types.lastKey)", "\(type.name) keys")
        }
        counters.lastKey = next
        counters.isDirty = true
        self.counters[type.index] = counters
        return next
    }

    /// Raises the autoIncrement counter of `type` past a key given explicitly.
    func noteExplicitKey(_ type: String, _ key: Int64) throws {
        try noteExplicitKey(catalog.storedType(type), key)
    }

    /// Raises the autoIncrement counter of `type` past a key given explicitly.
    func noteExplicitKey(_ type: StoredType, _ key: Int64) throws {
        var counters = try self.counters(of: type)
        if key > counters.lastKey {
            counters.lastKey = key
            counters.isDirty = true
            self.counters[type.index] = counters
        }
    }

    /// A new id for a nested mixed list or map.
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

    func count(_ type: StoredType, _ change: WritePath.Change) {
        switch change {
        case .inserted: tally[type.index].inserted += 1
        case .updated: tally[type.index].updated += 1
        case .unchanged: tally[type.index].unchanged += 1
        case .deleted: tally[type.index].deleted += 1
        }
    }

    /// Runs `body` with `scope` as the scope references resolve in.
    func resolving<T>(in scope: ReferenceScope?, _ body: () throws -> T) rethrows -> T {
        if let scope, !scopeMarks.contains(where: { $0.scope === scope }) {
            scopeMarks.append((scope, scope.mark))
            // Undone only whole: a snapshot serves, where a journal would hold every change.
            if !savepointsPerChange { scope.keepSnapshot() }
        }
        let outer = references
        references = scope
        defer { references = outer }
        return try body()
    }

    /// Fails when a scope used by this transaction still has a reference no document defined,
    /// since the link would name an object that does not exist.
    func requireResolvedReferences() throws(KuraError) {
        for (scope, _) in scopeMarks {
            guard let first = scope.firstUnresolved else { continue }
            throw KuraError.store(.unresolvedReference, first.message)
        }
    }

    /// Settles the scopes this transaction used: their changes stay on commit and are undone on rollback.
    func finishScopes(committed: Bool) {
        for (scope, mark) in scopeMarks {
            if committed { scope.commit() } else { scope.undo(to: mark) }
        }
        scopeMarks.removeAll()
    }

    /// Whether each change runs in a savepoint of its own (`atomically`), so that a failed change
    /// leaves nothing behind while the transaction goes on. An all-or-nothing import turns it off:
    /// any failure there rolls the whole transaction back, and the savepoints' journals cost a
    /// fifth of its time.
    var savepointsPerChange = true

    /// Runs `body` so that it takes effect whole or not at all: on error, everything it wrote
    /// inside the transaction is rolled back to a savepoint and the error is rethrown (unless
    /// `savepointsPerChange` is off, when the caller rolls back the whole transaction instead).
    func atomically<T>(_ body: () throws -> T) throws -> T {
        guard savepointsPerChange else { return try body() }
        let savedTally = tally
        let savedMarks = scopeMarks.map { ($0.scope, $0.scope.mark) }
        let mayOpenWithdrawal = keepsWithdrawalPoint && withdrawal == nil && references?.isResolved == true
        // Held rows are written at the savepoint and at its release, so every row a failed change
        // held is either rolled back or dropped, and no other change's.
        try db.cachedStatement(sql: "SAVEPOINT kura_change").execute()
        do {
            let result = try body()
            if mayOpenWithdrawal, references?.isResolved == false {
                // Its savepoint stays open below the later changes' (same name, so theirs are the
                // ones a failure rolls back): the point `withdrawHeldChanges` returns to.
                withdrawal = (savedTally, savedMarks)
            } else {
                try db.cachedStatement(sql: "RELEASE kura_change").execute()
            }
            return result
        } catch {
            tally = savedTally
            for (scope, mark) in savedMarks { scope.undo(to: mark) }
            bulk?.discard()
            try connection.cachedStatement(sql: "ROLLBACK TO kura_change").execute()
            try connection.cachedStatement(sql: "RELEASE kura_change").execute()
            throw error
        }
    }

    /// Runs `body` and keeps what it wrote only when it returns true. Otherwise, or when it throws
    /// anything but a failure of the realm (which is rethrown), everything it did is taken back
    /// (rows, counts, counters and references) and false is returned.
    func tentatively(_ body: () throws -> Bool) throws -> Bool {
        let saved = (tally: tally, counters: counters, container: lastMixedContainer)
        let mark = references?.beginTrial()
        try db.cachedStatement(sql: "SAVEPOINT kura_trial").execute()
        var kept = false
        do {
            kept = try body()
        } catch let error as KuraError where error.isStoreFailure {
            try takeBack(saved, mark)
            throw error
        } catch let error as DatabaseError where KuraError.database(error, sql: nil).isStoreFailure {
            try takeBack(saved, mark)
            throw error
        } catch {
            kept = false
        }
        guard kept else {
            try takeBack(saved, mark)
            return false
        }
        try db.cachedStatement(sql: "RELEASE kura_trial").execute()
        if let mark { references?.endTrial(at: mark, keeping: true) }
        return true
    }

    private func takeBack(_ saved: (tally: [ChangeCounts], counters: [TypeCounters?], container: Int64?), _ mark: Int?) throws {
        tally = saved.tally
        counters = saved.counters
        lastMixedContainer = saved.container
        if let mark { references?.endTrial(at: mark, keeping: false) }
        bulk?.discard()
        try connection.cachedStatement(sql: "ROLLBACK TO kura_trial").execute()
        try connection.cachedStatement(sql: "RELEASE kura_trial").execute()
    }

    /// Each type's last object id now, before the input being started writes anything.
    func objectIdFloors() throws -> [String: Int64] {
        var floors: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT \"name\", \"lastObjectId\" FROM \(TableLayout.typesTable)") {
            if let name = row[0] as String?, let last = row[1] as Int64? { floors[name] = last }
        }
        // Ids handed out in this transaction, not yet in the table, are taken too.
        for (index, type) in storedTypes.enumerated() {
            if let handedOut = counters[index]?.lastObjectId { floors[type.name] = max(floors[type.name] ?? 0, handedOut) }
        }
        return floors
    }

    /// Whether a change that leaves a reference waiting for a later document keeps its savepoint
    /// open, so that it and every change after it can be withdrawn together should the reference
    /// never resolve (`withdrawHeldChanges`): for an import that sets such documents aside.
    var keepsWithdrawalPoint = false
    /// The tally and scope marks from before the change whose savepoint is kept open, if any.
    private var withdrawal: (tally: [ChangeCounts], marks: [(ReferenceScope, Int)])?

    /// Whether a savepoint is kept open for `withdrawHeldChanges`.
    var holdsWithdrawalPoint: Bool { withdrawal != nil }

    /// Keeps the changes since the withdrawal point: its savepoint is released.
    func releaseWithdrawalPoint() throws {
        guard withdrawal != nil else { return }
        try db.cachedStatement(sql: "RELEASE kura_change").execute()
        withdrawal = nil
    }

    /// Undoes every change since the withdrawal point, that change included: rows, counts and
    /// references. Counters keep the ids handed out meanwhile, which are then never used.
    func withdrawHeldChanges() throws {
        guard let (savedTally, savedMarks) = withdrawal else { return }
        withdrawal = nil
        tally = savedTally
        for (scope, mark) in savedMarks { scope.undo(to: mark) }
        bulk?.discard()
        try connection.cachedStatement(sql: "ROLLBACK TO kura_change").execute()
        try connection.cachedStatement(sql: "RELEASE kura_change").execute()
    }

    /// Writes every held insert and the counters; called just before commit.
    func flushCounters() throws {
        try bulk?.flush()
        for (index, type) in storedTypes.enumerated() {
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

    /// The counters of `type`, read from the types table the first time.
    private func counters(of type: StoredType) throws -> TypeCounters {
        if let loaded = counters[type.index] { return loaded }
        let loaded = try loadCounters(type.name)
        counters[type.index] = loaded
        return loaded
    }

    private func loadCounters(_ type: String) throws -> TypeCounters {
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
}

/// The highest object id and autoIncrement key a type has handed out, and whether they changed.
/// A struct, changed in place in the transaction's array: fetching a class instance from it for
/// every object cost a retain and a release.
private struct TypeCounters {
    var lastObjectId: Int64
    var lastKey: Int64
    var isDirty = false
}

/// Names for what a write did to an object.
enum WritePath {
    enum Change { case inserted, updated, unchanged, deleted }
}
