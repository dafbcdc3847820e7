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
    /// The identifier counters, read on first use.
    private var counters: IdentifierCounters
    /// Inserts held back to be written in batches, when `holdInserts()` turned that on.
    private var held: PostgresHeldInserts?
    /// The existing objects whose collections changed (`noteModified`), in the order noted, each once.
    private(set) var modifiedObjects: [ObjectRef] = []
    private var modifiedSet: Set<ObjectRef> = []
    /// Per open savepoint, how many objects were noted modified when it opened.
    private var savepointMarks: [Int] = []
    /// The highest integer key of each type, read on first use.
    private var keyCeilings: KeyCeilings

    init(session: PostgresSession, catalog: SchemaCatalog) {
        connection = session
        self.catalog = catalog
        statements = PostgresInsertStatements(catalog)
        counters = IdentifierCounters(catalog: catalog)
        keyCeilings = KeyCeilings(typeCount: catalog.storedTypes.count)
    }

    /// The transaction's session, with every held insert written first, so that whatever runs on
    /// it sees them.
    var session: PostgresSession {
        get throws(KuraError) {
            try held?.flush()
            keyCeilings.forget()
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
        keyCeilings.raise(type, to: key)
    }

    /// The id of the `type` object whose primary key is stored as `key`: a held object by its
    /// noted key, else the table's, without writing any batch (held objects' keys are all noted).
    func objectId(_ type: StoredType, key: StoredCell) throws -> Int64? {
        guard type.index < statements.lookups.count, let lookup = statements.lookups[type.index] else { return nil }
        if let id = held?.id(of: type.name, key: key) { return id }
        if try keyCeilings.isAbove(key, of: type, highest: { try highestKey(type, $0) }) { return nil }
        guard let found = try connection.value(lookup, [PostgresLayout.stored(key)]) else { return nil }
        guard case .integer(let id) = found else {
            throw KuraError.store(.corruptRealm, "an object of \(type.name) has an id that is not an integer")
        }
        return id
    }

    /// The highest integer primary key of `type` in its table and its held rows, if any.
    private func highestKey(_ type: StoredType, _ key: StoredProperty) throws(KuraError) -> Int64? {
        let stored = try connection.value(
            "SELECT max(\(TableLayout.column(key.name))) FROM \(TableLayout.objectTable(type.name))")
        var highest = Int64.min
        if case .integer(let number) = stored { highest = number }
        return max(highest, held?.highestIntegerKey(of: type.name) ?? Int64.min)
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
        try counters.nextObjectId(ofType: index, read: storedCounters)
    }

    func nextAutoIncrementKey(ofType index: Int) throws -> Int64 {
        try counters.nextAutoIncrementKey(ofType: index, read: storedCounters)
    }

    func noteExplicitKey(_ key: Int64, ofType index: Int) throws {
        try counters.noteExplicitKey(key, ofType: index, read: storedCounters)
    }

    func nextMixedContainer() throws -> Int64 {
        try counters.nextMixedContainer { try metaNumber("lastMixedContainer") }
    }

    /// The number `#meta` holds under `key`.
    private func metaNumber(_ key: String) throws(KuraError) -> Int64 {
        let stored = try connection.value("SELECT \"value\" FROM \(TableLayout.metaTable) WHERE \"key\" = $1", [.text(key)])
        guard case .text(let text)? = stored, let number = Int64(text) else {
            throw KuraError.store(.corruptRealm, "the realm's #meta.\(key) is missing or not a number")
        }
        return number
    }

    func objectIdFloors() throws -> [String: Int64] {
        var floors: [String: Int64] = [:]
        for row in try session.rows("SELECT \"name\", \"lastObjectId\" FROM \(TableLayout.typesTable)") {
            if row.count == 2, case .text(let name) = row[0], case .integer(let last) = row[1] { floors[name] = last }
        }
        // Ids handed out in this transaction, not yet in the table, are taken too.
        return counters.raising(floors)
    }

    func flush() throws {
        let session = try self.session
        try counters.writeChanged { name, lastObjectId, lastKey in
            try session.execute(
                "UPDATE \(TableLayout.typesTable) SET \"lastObjectId\" = $1, \"lastKey\" = $2 WHERE \"name\" = $3",
                [.integer(lastObjectId), .integer(lastKey), .text(name)])
        }
        if let lastMixedContainer = counters.lastMixedContainer {
            try session.execute(
                "UPDATE \(TableLayout.metaTable) SET \"value\" = $1 WHERE \"key\" = 'lastMixedContainer'",
                [.text(String(lastMixedContainer))])
        }
    }

    var counterMark: any Sendable { counters.mark }

    func restoreCounters(_ mark: any Sendable) {
        counters.restore(mark)
    }

    /// The stored counters of the type at `index`, from the types table.
    private func storedCounters(of index: Int) throws(KuraError) -> TypeCounters {
        let type = catalog.storedTypes[index].name
        let row = try connection.rows(
            "SELECT \"lastObjectId\", \"lastKey\" FROM \(TableLayout.typesTable) WHERE \"name\" = $1", [.text(type)]
        ).first
        guard let row, row.count == 2, case .integer(let lastObjectId) = row[0], case .integer(let lastKey) = row[1] else {
            throw KuraError.store(.corruptRealm, "the types table has no counters for '\(type)'")
        }
        return TypeCounters(lastObjectId: lastObjectId, lastKey: lastKey)
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
