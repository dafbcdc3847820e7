import Foundation

/// One write transaction as the object writer sees it: what it did to each type (the tally), the
/// scopes references resolve in, and the savepoints that make each change whole; the engine's
/// side (`storage`) holds the rows, identifiers and counters. Used by one thread at a time: its
/// per-type arrays, reached for every object, skip Swift's run-time exclusivity checks
/// (`@exclusivity(unchecked)`).
final class WriteTransaction {
    /// The engine the writer writes through, whichever it is.
    typealias Storage = any RelationalWriter

    /// The engine's side of the transaction.
    let storage: Storage
    /// Where the writer builds rows, the engine's: held here too, so that staging each value
    /// reaches it in one step (through `storage` it cost a retain and a release per value).
    let stage: RowStage
    let catalog: SchemaCatalog
    /// The catalog's types as the writer uses them, kept apart so that reaching one does not copy the catalog.
    let storedTypes: [StoredType]
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

    /// Per type, the mapper's type last found to lay its stored properties out as it does (see
    /// `sharesLayout`); held, so that no other box can take its address.
    @exclusivity(unchecked) private var layoutMatches: [ObjectSchemaBox?]

    init(storage: Storage) {
        self.storage = storage
        stage = storage.stage
        catalog = storage.catalog
        storedTypes = catalog.storedTypes
        tally = Array(repeating: ChangeCounts(), count: storedTypes.count)
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

    /// A new internal object id for `type`: one above the highest ever handed out.
    func nextObjectId(_ type: StoredType) throws -> Int64 {
        try storage.nextObjectId(ofType: type.index)
    }

    /// A new autoIncrement key for `type`: one above the highest ever used.
    func nextAutoIncrementKey(_ type: StoredType) throws -> Int64 {
        try storage.nextAutoIncrementKey(ofType: type.index)
    }

    /// Raises the autoIncrement counter of `type` past a key given explicitly.
    func noteExplicitKey(_ type: String, _ key: Int64) throws {
        try storage.noteExplicitKey(key, ofType: catalog.storedType(type).index)
    }

    /// Raises the autoIncrement counter of `type` past a key given explicitly.
    func noteExplicitKey(_ type: StoredType, _ key: Int64) throws {
        try storage.noteExplicitKey(key, ofType: type.index)
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
        try storage.begin(.change)
        do {
            let result = try body()
            if mayOpenWithdrawal, references?.isResolved == false {
                // Its savepoint stays open below the later changes' (same name, so theirs are the
                // ones a failure rolls back): the point `withdrawHeldChanges` returns to.
                withdrawal = (savedTally, savedMarks)
            } else {
                try storage.release(.change)
            }
            return result
        } catch {
            tally = savedTally
            for (scope, mark) in savedMarks { scope.undo(to: mark) }
            try storage.rollBack(to: .change)
            throw error
        }
    }

    /// Runs `body` and keeps what it wrote only when it returns true. Otherwise, or when it throws
    /// anything but a failure of the realm (which is rethrown), everything it did is taken back
    /// (rows, counts, counters and references) and false is returned.
    func tentatively(_ body: () throws -> Bool) throws -> Bool {
        let saved = (tally: tally, counters: storage.counterMark)
        let mark = references?.beginTrial()
        try storage.begin(.trial)
        var kept = false
        do {
            kept = try body()
        } catch let error as KuraError where error.isStoreFailure {
            try takeBack(saved, mark)
            throw error
        } catch where storage.isStoreFailure(error) {
            try takeBack(saved, mark)
            throw error
        } catch {
            kept = false
        }
        guard kept else {
            try takeBack(saved, mark)
            return false
        }
        try storage.release(.trial)
        if let mark { references?.endTrial(at: mark, keeping: true) }
        return true
    }

    private func takeBack(_ saved: (tally: [ChangeCounts], counters: any Sendable), _ mark: Int?) throws {
        tally = saved.tally
        storage.restoreCounters(saved.counters)
        if let mark { references?.endTrial(at: mark, keeping: false) }
        try storage.rollBack(to: .trial)
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
        try storage.release(.change)
        withdrawal = nil
    }

    /// Undoes every change since the withdrawal point, that change included: rows, counts and
    /// references. Counters keep the ids handed out meanwhile, which are then never used.
    func withdrawHeldChanges() throws {
        guard let (savedTally, savedMarks) = withdrawal else { return }
        withdrawal = nil
        tally = savedTally
        for (scope, mark) in savedMarks { scope.undo(to: mark) }
        try storage.rollBack(to: .change)
    }
}

/// Names for what a write did to an object.
enum WritePath {
    enum Change { case inserted, updated, unchanged, deleted }
}
