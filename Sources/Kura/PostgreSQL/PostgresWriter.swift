import Foundation
import PostgresNIO

/// The PostgreSQL engine's side of one write transaction, on a session whose transaction the
/// engine has begun: the rows staged for it and the statements that insert them, inserts held for
/// COPY batches, the identifier counters, key lookups and savepoints.
///
/// The engine holds a lock that makes writers take turns, so the counters, read from `#types` on
/// first use and written back by `flush`, cannot move under it. Used by one thread at a time.
final class PostgresWriter: RelationalWriter {
    /// The session, without writing held inserts first: for statements that cannot see them.
    private let connection: PostgresSession
    let catalog: SchemaCatalog
    /// Where the writer builds rows before they are inserted.
    let stage = RowStage()
    /// The inserts by the catalog's slot numbers.
    let statements: PostgresInsertStatements
    /// Each type's counters by `StoredType.index`, read on first use.
    private var counters: [Counters?]
    private var lastMixedContainer: Int64?
    /// Inserts held back to be written in batches, when `holdInserts()` turned that on.
    private var held: PostgresHeldInserts?
    /// The existing objects whose collections changed (`noteModified`), in the order noted, each once.
    private(set) var modifiedObjects: [ObjectRef] = []
    private var modifiedSet: Set<ObjectRef> = []
    /// Per open savepoint, how many objects were noted modified when it opened.
    private var savepointMarks: [Int] = []
    /// Per type with an integer primary key, the highest key its table and held rows hold, read
    /// once and raised as keys are inserted: a key above it needs no lookup. Forgotten whenever
    /// the session is used some other way, which could write keys.
    private var keyCeilings: [Int64?]

    init(session: PostgresSession, catalog: SchemaCatalog) {
        connection = session
        self.catalog = catalog
        statements = PostgresInsertStatements(catalog)
        counters = Array(repeating: nil, count: catalog.storedTypes.count)
        keyCeilings = Array(repeating: nil, count: catalog.storedTypes.count)
    }

    /// The transaction's session, with every held insert written first, so that whatever runs on
    /// it sees them.
    var session: PostgresSession {
        get throws(KuraError) {
            try held?.flush()
            for index in keyCeilings.indices { keyCeilings[index] = nil }
            return connection
        }
    }

    /// What reads inside the transaction see: every held insert written first.
    func snapshot(by catalog: SchemaCatalog) throws -> any RelationalSnapshot {
        PostgresSnapshot(session: try session, catalog: catalog)
    }

    /// `nil`: PostgreSQL realms are copied object by object.
    func copySetBased(
        from source: SchemaCatalog, findsUnkeyedObjects: Bool, onProgress: ((Int, Int?) -> Void)?
    ) throws -> [String: ChangeCounts]? {
        nil
    }

    /// From now on inserts are held and written with COPY in batches (`PostgresHeldInserts`).
    func holdInserts() throws {
        if held == nil { held = PostgresHeldInserts(session: connection, statements: statements, catalog: catalog) }
    }

    var holdsInserts: Bool { held != nil }

    /// Inserts the rows staged in `range` with `slot`'s insert, or holds them for `bulkInsert`.
    func insert(_ slot: WriteStatements.Slot, bulk bulkInsert: WriteStatements.BulkInsert?, cells range: Range<Int>) throws {
        if let held, let bulkInsert {
            try held.append(bulkInsert, from: stage, cells: range)
        } else {
            let insert = try statements.insert(slot)
            try connection.execute(insert.sql, insert.arguments(stage, cells: range))
        }
    }

    func noteInsertedKey(_ key: StoredCell, of type: StoredType, id: Int64) {
        held?.noteKey(key, of: type.name, id: id)
        if case .integer(let number) = key, type.index < keyCeilings.count, let ceiling = keyCeilings[type.index], number > ceiling {
            keyCeilings[type.index] = number
        }
    }

    /// The id of the `type` object whose primary key is stored as `key`: a held object by its
    /// noted key, else the table's, without writing any batch (held objects' keys are all noted).
    func objectId(_ type: StoredType, key: StoredCell) throws -> Int64? {
        guard type.index < statements.lookups.count, let lookup = statements.lookups[type.index] else { return nil }
        if let id = held?.id(of: type.name, key: key) { return id }
        if case .integer(let number) = key, let ceiling = try keyCeiling(type), number > ceiling { return nil }
        guard let found = try connection.value(lookup, [PostgresLayout.stored(key)]) else { return nil }
        guard case .integer(let id) = found else {
            throw KuraError.store(.corruptRealm, "an object of \(type.name) has an id that is not an integer")
        }
        return id
    }

    /// The highest integer primary key of `type` in its table and its held rows, or `Int64.min`
    /// when there is none; `nil` for a type whose keys are not integers.
    private func keyCeiling(_ type: StoredType) throws(KuraError) -> Int64? {
        if let ceiling = keyCeilings[type.index] { return ceiling }
        guard let key = type.key, key.scalarType == .int else { return nil }
        let stored = try connection.value(
            "SELECT max(\(TableLayout.column(key.name))) FROM \(TableLayout.objectTable(type.name))")
        var ceiling = Int64.min
        if case .integer(let number) = stored { ceiling = number }
        ceiling = max(ceiling, held?.highestIntegerKey(of: type.name) ?? Int64.min)
        keyCeilings[type.index] = ceiling
        return ceiling
    }

    /// Writes one column of the object's row, and a mixed property's tag beside it.
    func setColumn(_ ref: ObjectRef, _ property: Property, _ value: StoredCell, tag: Int64?) throws {
        let table = TableLayout.objectTable(ref.type)
        let column = TableLayout.column(property.name)
        let stored = property.type == .mixed ? PostgresLayout.storedMixed(value) : PostgresLayout.stored(value)
        if let tag {
            try session.execute(
                "UPDATE \(table) SET \(column) = $1, \(TableLayout.tagColumn(property.name)) = $2 WHERE \(TableLayout.idColumn) = $3",
                [stored, .integer(tag), .integer(ref.id)])
        } else {
            try session.execute(
                "UPDATE \(table) SET \(column) = $1 WHERE \(TableLayout.idColumn) = $2", [stored, .integer(ref.id)])
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
        let current = try lastMixedContainer ?? metaNumber("lastMixedContainer")
        let (next, overflow) = current.addingReportingOverflow(1)
        if overflow { throw Self.exhausted("the container counter (#meta.lastMixedContainer)", "nested mixed lists or maps") }
        lastMixedContainer = next
        return next
    }

    /// The number `#meta` holds under `key`.
    private func metaNumber(_ key: String) throws(KuraError) -> Int64 {
        let stored = try connection.value("SELECT \"value\" FROM \(TableLayout.metaTable) WHERE \"key\" = $1", [.text(key)])
        guard case .text(let text)? = stored, let number = Int64(text) else {
            throw KuraError.store(.corruptRealm, "the realm's #meta.\(key) is missing or not a number")
        }
        return number
    }

    /// The error for a counter that stands at Int64.max, so that no more `what` can be created.
    static func exhausted(_ counter: String, _ what: String) -> KuraError {
        KuraError.store(.counterExhausted, "\(counter) has reached Int64.max: no more \(what) can be created")
    }

    func objectIdFloors() throws -> [String: Int64] {
        var floors: [String: Int64] = [:]
        for row in try session.rows("SELECT \"name\", \"lastObjectId\" FROM \(TableLayout.typesTable)") {
            if row.count == 2, case .text(let name) = row[0], case .integer(let last) = row[1] { floors[name] = last }
        }
        // Ids handed out in this transaction, not yet in the table, are taken too.
        for (index, type) in catalog.storedTypes.enumerated() {
            if let handedOut = counters[index]?.lastObjectId { floors[type.name] = max(floors[type.name] ?? 0, handedOut) }
        }
        return floors
    }

    func flush() throws {
        let session = try self.session
        for (index, type) in catalog.storedTypes.enumerated() {
            guard let counters = counters[index], counters.isDirty else { continue }
            try session.execute(
                "UPDATE \(TableLayout.typesTable) SET \"lastObjectId\" = $1, \"lastKey\" = $2 WHERE \"name\" = $3",
                [.integer(counters.lastObjectId), .integer(counters.lastKey), .text(type.name)])
            self.counters[index]?.isDirty = false
        }
        if let lastMixedContainer {
            try session.execute(
                "UPDATE \(TableLayout.metaTable) SET \"value\" = $1 WHERE \"key\" = 'lastMixedContainer'",
                [.text(String(lastMixedContainer))])
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
        let counters: [Counters?]
        let container: Int64?
    }

    /// The highest object id and autoIncrement key a type has handed out, and whether they changed.
    private struct Counters: Sendable {
        var lastObjectId: Int64
        var lastKey: Int64
        var isDirty = false
    }

    /// The counters of the type at `index`, read from the types table the first time.
    private func counters(of index: Int) throws(KuraError) -> Counters {
        if let loaded = counters[index] { return loaded }
        let type = catalog.storedTypes[index].name
        let row = try connection.rows(
            "SELECT \"lastObjectId\", \"lastKey\" FROM \(TableLayout.typesTable) WHERE \"name\" = $1", [.text(type)]
        ).first
        guard let row, row.count == 2, case .integer(let lastObjectId) = row[0], case .integer(let lastKey) = row[1] else {
            throw KuraError.store(.corruptRealm, "the types table has no counters for '\(type)'")
        }
        let loaded = Counters(lastObjectId: lastObjectId, lastKey: lastKey)
        counters[index] = loaded
        return loaded
    }

    // MARK: Savepoints

    // Held rows are written when a savepoint opens and when it is released, so every row held
    // after it is either rolled back or dropped with it, and no other's.

    func begin(_ savepoint: WriteSavepoint) throws {
        try session.execute("SAVEPOINT \(Self.name(savepoint))")
        savepointMarks.append(modifiedObjects.count)
    }

    func release(_ savepoint: WriteSavepoint) throws {
        try session.execute("RELEASE SAVEPOINT \(Self.name(savepoint))")
        _ = savepointMarks.popLast()
    }

    func rollBack(to savepoint: WriteSavepoint) throws {
        held?.discard()
        if let mark = savepointMarks.popLast() {
            for ref in modifiedObjects[mark...] { modifiedSet.remove(ref) }
            modifiedObjects.removeSubrange(mark...)
        }
        try connection.execute("ROLLBACK TO SAVEPOINT \(Self.name(savepoint))")
        try connection.execute("RELEASE SAVEPOINT \(Self.name(savepoint))")
    }

    private static func name(_ savepoint: WriteSavepoint) -> String {
        switch savepoint {
        case .change: "kura_change"
        case .trial: "kura_trial"
        }
    }

    /// Whether `error` is the realm's failure rather than one input's: a lost connection, or any
    /// error of the server but its refusals of a value (SQLSTATE classes 22, data exceptions; 23,
    /// constraint violations; 54, a value or statement past a limit).
    func isStoreFailure(_ error: any Error) -> Bool {
        let kura = error as? KuraError
        guard let failure = (kura?.underlying ?? error) as? PSQLError else { return kura?.isStoreFailure ?? false }
        guard failure.code == .server, let state = failure.serverInfo?[.sqlState] else { return true }
        return !["22", "23", "54"].contains(String(state.prefix(2)))
    }

    /// Records that an existing object's collections changed, which its row does not show: kept in
    /// `modifiedObjects` for the change log, and taken back with a savepoint rolled back.
    func noteModified(_ ref: ObjectRef) throws {
        guard modifiedSet.insert(ref).inserted else { return }
        modifiedObjects.append(ref)
    }
}
