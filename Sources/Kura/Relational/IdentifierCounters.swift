/// The identifier counters of one write transaction, for either engine: each type's last object id
/// and autoIncrement key, and the last nested mixed container. Each is read from storage on first
/// use (the engine's `read`), handed out here, and written back by the engine's flush; a trial
/// takes them back with `mark` and `restore`.
///
/// A struct of arrays, changed in place: fetching a class instance for every object cost a retain
/// and a release.
struct IdentifierCounters {
    /// Each type's counters by `StoredType.index`, read on first use.
    private var types: [TypeCounters?]
    /// The last container handed out, once one is.
    private(set) var lastMixedContainer: Int64?
    private let typeNames: [String]

    init(catalog: SchemaCatalog) {
        typeNames = catalog.storedTypes.map(\.name)
        types = Array(repeating: nil, count: typeNames.count)
    }

    mutating func nextObjectId(ofType index: Int, read: (Int) throws -> TypeCounters) throws -> Int64 {
        try advance(ofType: index, key: false, read: read)
    }

    mutating func nextAutoIncrementKey(ofType index: Int, read: (Int) throws -> TypeCounters) throws -> Int64 {
        try advance(ofType: index, key: true, read: read)
    }

    /// Hands out the type's next autoIncrement key (`key`) or object id.
    private mutating func advance(ofType index: Int, key: Bool, read: (Int) throws -> TypeCounters) throws -> Int64 {
        var counters = try self.counters(of: index, read: read)
        let (next, overflow) = (key ? counters.lastKey : counters.lastObjectId).addingReportingOverflow(1)
        if overflow {
            let name = typeNames[index]
            throw key
                ? Self.exhausted("the autoIncrement counter of \(name) (#types.lastKey)", "\(name) keys")
                : Self.exhausted("the object id counter of \(name) (#types.lastObjectId)", "\(name) objects")
        }
        if key { counters.lastKey = next } else { counters.lastObjectId = next }
        counters.isDirty = true
        types[index] = counters
        return next
    }

    /// Raises the type's autoIncrement counter to a key given explicitly, when it is higher.
    mutating func noteExplicitKey(_ key: Int64, ofType index: Int, read: (Int) throws -> TypeCounters) throws {
        var counters = try self.counters(of: index, read: read)
        guard key > counters.lastKey else { return }
        counters.lastKey = key
        counters.isDirty = true
        types[index] = counters
    }

    /// The next nested mixed container's id; `read` gives the stored counter the first time.
    mutating func nextMixedContainer(read: () throws -> Int64) throws -> Int64 {
        let current = try lastMixedContainer ?? read()
        let (next, overflow) = current.addingReportingOverflow(1)
        if overflow { throw Self.exhausted("the container counter (#meta.lastMixedContainer)", "nested mixed lists or maps") }
        lastMixedContainer = next
        return next
    }

    /// `floors`, each type's stored last object id, raised to the ids this transaction handed out.
    func raising(_ floors: [String: Int64]) -> [String: Int64] {
        var raised = floors
        for (index, name) in typeNames.enumerated() {
            if let handedOut = types[index]?.lastObjectId { raised[name] = max(raised[name] ?? 0, handedOut) }
        }
        return raised
    }

    /// Hands each type's changed counters to `write` (type name, last object id, last key), then
    /// counts them as written.
    mutating func writeChanged(_ write: (String, Int64, Int64) throws -> Void) throws {
        for index in types.indices {
            guard let counters = types[index], counters.isDirty else { continue }
            try write(typeNames[index], counters.lastObjectId, counters.lastKey)
            types[index]?.isDirty = false
        }
    }

    /// The counters handed out so far, to take back with a trial.
    var mark: any Sendable { Mark(types: types, container: lastMixedContainer) }

    mutating func restore(_ mark: any Sendable) {
        guard let mark = mark as? Mark else { return }
        types = mark.types
        lastMixedContainer = mark.container
    }

    private struct Mark: Sendable {
        let types: [TypeCounters?]
        let container: Int64?
    }

    private mutating func counters(of index: Int, read: (Int) throws -> TypeCounters) throws -> TypeCounters {
        if let loaded = types[index] { return loaded }
        let loaded = try read(index)
        types[index] = loaded
        return loaded
    }

    /// The error for a counter that stands at Int64.max, so that no more `what` can be created.
    static func exhausted(_ counter: String, _ what: String) -> KuraError {
        KuraError.store(.counterExhausted, "\(counter) has reached Int64.max: no more \(what) can be created")
    }
}

/// The highest object id and autoIncrement key a type has handed out, and whether they changed.
struct TypeCounters: Sendable {
    var lastObjectId: Int64
    var lastKey: Int64
    var isDirty = false
}

/// Per type with an integer primary key, the highest key its table and held rows hold: read once
/// and raised as keys are inserted, so that a key above it needs no lookup. Forgotten whenever the
/// transaction's connection is used some other way, which could write keys.
struct KeyCeilings {
    private var ceilings: [Int64?]
    private var isEmpty = true

    init(typeCount: Int) {
        ceilings = Array(repeating: nil, count: typeCount)
    }

    /// Forgets every ceiling read.
    mutating func forget() {
        guard !isEmpty else { return }
        for index in ceilings.indices { ceilings[index] = nil }
        isEmpty = true
    }

    /// Raises `type`'s ceiling, if read, to a key just inserted.
    mutating func raise(_ type: StoredType, to key: StoredCell) {
        if case .integer(let number) = key, type.index < ceilings.count, let ceiling = ceilings[type.index], number > ceiling {
            ceilings[type.index] = number
        }
    }

    /// Whether `key` is an integer above every key of `type` stored or held, so that no object has
    /// it; `highest` reads the highest the first time (`nil` when there is none).
    mutating func isAbove(_ key: StoredCell, of type: StoredType, highest: (StoredProperty) throws -> Int64?) throws -> Bool {
        guard case .integer(let number) = key, type.index < ceilings.count else { return false }
        if let ceiling = ceilings[type.index] { return number > ceiling }
        guard let property = type.key, property.scalarType == .int else { return false }
        let ceiling = try highest(property) ?? Int64.min
        ceilings[type.index] = ceiling
        isEmpty = false
        return number > ceiling
    }
}
