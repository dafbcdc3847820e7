import Foundation

/// The objects of one type that match a query, read lazily: Realm's `Results`.
///
/// Making, filtering and sorting results reads nothing; the query is checked against the schema
/// right away, so a bad predicate throws a `KuraError` where it is written. `count` is one SQL
/// `COUNT`; `first`, `last`, indexing, ranges and iteration read `windowSize` objects at a time
/// (by `LIMIT`/`OFFSET`) and keep the last window read.
///
/// Results are live: after a write committed on this realm, or by another connection or process,
/// the next access reads the new state.
///
/// Results of `Sendable` elements (structs, `DynamicObject`) are `Sendable` and may be read from
/// several threads at once; each read is one read transaction of the realm's connection.
///
/// `Results` is a `Sequence`, not a `Collection`: reading can fail (an I/O error, or a stored object
/// that no longer decodes as the model) and Kura never traps on data, so `count`, `first`, `last`
/// and subscripts throw instead. Iteration (`for dog in dogs`) cannot throw: it stops at a read
/// that fails and leaves the error in `iterationError`.
public struct Results<Element>: Sequence {
    /// The realm the objects live in.
    public let realm: Realm
    /// The queried type's name.
    public let typeName: String
    let predicates: [ParsedPredicate]
    /// `SORT`, `DISTINCT` and `LIMIT` written after the predicates, in order.
    let descriptors: [QueryDescriptor]
    let sortKeys: [SortKey]
    let query: ObjectQuery
    /// Makes the elements for ids read in a snapshot, in the same snapshot.
    let load: @Sendable (Realm, Realm.Snapshot, [Int64]) throws -> [Element]
    private let cache: ResultsCache<Element>
    /// For results an observer reports: the objects (by id, in order) they held at the commit the
    /// report describes, so that its indexes fit them; `nil` for results that follow the query.
    let pinnedIds: [Int64]?

    /// How many objects a read fetches at once.
    public static var windowSize: Int { 100 }

    init(
        realm: Realm, type: String, predicates: [ParsedPredicate] = [], descriptors: [QueryDescriptor] = [], sortKeys: [SortKey] = [],
        load: @escaping @Sendable (Realm, Realm.Snapshot, [Int64]) throws -> [Element]
    ) throws(KuraError) {
        self.realm = realm
        self.typeName = type
        self.predicates = predicates
        self.descriptors = descriptors
        self.sortKeys = sortKeys
        // Every object of an embedded type can be listed, as before `Results`; Realm refuses that.
        self.query = try ObjectQuery(
            type, predicates: predicates, descriptors: descriptors, sortKeys: sortKeys, catalog: realm.catalog, allowsEmbedded: true)
        self.load = load
        self.cache = ResultsCache()
        self.pinnedIds = nil
    }

    /// The same query's results holding the objects `ids` in that order, as they were at a commit
    /// an observer reports, with a cache of their own (for handing to another thread).
    func pinned(to ids: [Int64]) -> Results {
        Results(copying: self, pinnedIds: ids)
    }

    private init(copying other: Results, pinnedIds: [Int64]) {
        realm = other.realm
        typeName = other.typeName
        predicates = other.predicates
        descriptors = other.descriptors
        sortKeys = other.sortKeys
        query = other.query
        load = other.load
        cache = ResultsCache()
        self.pinnedIds = pinnedIds
    }

    // MARK: Refining

    /// The results that also match `predicate`, a predicate in the language of `kura export --where`
    /// (`age >= 3 AND owner.name BEGINSWITH 'A'`).
    ///
    /// `$0`, `$1` … in the text take the argument of that index, or else each `%@` takes the next
    /// argument as a value and each `%K` the next argument as a key path: `filter("name == $0",
    /// name)`, `filter("%K == %@", "name", name)`. Arguments are bound, never pasted into the text.
    /// Filters chained one after another must all hold; `SORT(…)`, `DISTINCT(…)` and `LIMIT(…)`
    /// after a predicate apply in order, before `sorted(by:)`. Throws `KuraError` when the text does
    /// not parse or fit the schema, or the arguments do not pair up with the placeholders.
    public func filter(_ predicate: String, _ arguments: any QueryArgument...) throws(KuraError) -> Results {
        try filter(predicate, arguments: arguments)
    }

    /// The results that also match `predicate`, with its placeholders' arguments given as a list.
    public func filter(_ predicate: String, arguments: [any QueryArgument]) throws(KuraError) -> Results {
        let parsed = try PredicateParser.parseQuery(predicate, arguments: arguments.map(\.queryValue))
        return try Results(
            realm: realm, type: typeName, predicates: predicates + [parsed.predicate], descriptors: descriptors + parsed.descriptors,
            sortKeys: sortKeys, load: load)
    }

    /// The results ordered by one key path (`name`, `owner.name`), ties in creation order.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) throws(KuraError) -> Results {
        try sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// The results ordered by several key paths, the first deciding first; ties in creation order.
    /// Sorting again replaces the previous order, as in Realm.
    public func sorted(by descriptors: [SortDescriptor]) throws(KuraError) -> Results {
        var keys: [SortKey] = []
        for descriptor in descriptors {
            var key = try SortKey.parseOne(descriptor.keyPath)
            key.ascending = descriptor.ascending
            keys.append(key)
        }
        return try Results(realm: realm, type: typeName, predicates: predicates, descriptors: self.descriptors, sortKeys: keys, load: load)
    }

    // MARK: Reading

    /// How many objects match: one SQL `COUNT`, read again only after the realm changed.
    public var count: Int {
        get throws {
            let version = try currentVersion()
            if let pinnedIds { return pinnedIds.count }
            if let version, let known = cache.count, known.version == version { return known.value }
            let query = self.query
            let value = try realm.read { snapshot in try snapshot.count(matching: query) }
            if let version { cache.count = (version, value) }
            return value
        }
    }

    /// Whether no object matches.
    public var isEmpty: Bool {
        get throws { try window(at: 0).isEmpty }
    }

    /// The first object, or `nil`; reads one window.
    public var first: Element? {
        get throws { try window(at: 0).first }
    }

    /// The last object, or `nil`; counts, then reads the window that holds it.
    public var last: Element? {
        get throws {
            let count = try self.count
            return count == 0 ? nil : try self[count - 1]
        }
    }

    /// The object at `index`, reading the window that holds it unless it was the last one read.
    /// Throws `KuraError` with code `.store(.indexOutOfRange)` outside `0..<count`.
    public subscript(index: Int) -> Element {
        get throws {
            if index >= 0 {
                let start = index - index % Self.windowSize
                let elements = try window(at: start)
                if index - start < elements.count { return elements[index - start] }
            }
            throw KuraError.store(.indexOutOfRange, "index \(index) is outside the \(try count) \(typeName) results")
        }
    }

    /// The objects at `bounds` (clamped to the results), read in windows.
    public subscript(bounds: Range<Int>) -> [Element] {
        get throws {
            var elements: [Element] = []
            var start = Swift.max(bounds.lowerBound, 0)
            while start < bounds.upperBound {
                let windowStart = start - start % Self.windowSize
                let window = try self.window(at: windowStart)
                let end = Swift.min(windowStart + window.count, bounds.upperBound)
                if end <= start { break }
                elements += window[(start - windowStart)..<(end - windowStart)]
                start = end
            }
            return elements
        }
    }

    /// The internal ids of the matching objects, all of them, in order.
    func allIds() throws -> [Int64] {
        if let pinnedIds { return pinnedIds }
        let query = self.query
        return try realm.read { snapshot in try snapshot.ids(matching: query) }
    }

    /// The window of objects from `start` (a multiple of `windowSize`), from the cache when the realm
    /// has not changed since it was read.
    func window(at start: Int) throws -> [Element] {
        let version = try currentVersion()
        if let version, let window = cache.window, window.version == version, window.start == start { return window.elements }
        let elements = try readWindow(at: start)
        if let version { cache.window = (version, start, elements) }
        return elements
    }

    /// Reads `windowSize` objects from position `start`: their ids and their values in one read transaction.
    func readWindow(at start: Int) throws -> [Element] {
        let query = self.query
        let load = self.load
        let realm = self.realm
        let pinnedIds = self.pinnedIds
        return try realm.read { snapshot in
            let ids = try pinnedIds.map { Array($0.dropFirst(start).prefix(Self.windowSize)) }
                ?? snapshot.ids(matching: query, limit: Self.windowSize, offset: start)
            realm.state.countRowsRead(ids.count)
            return try load(realm, snapshot, ids)
        }
    }

    /// The state of the realm that cached reads are valid for; `nil` inside a write transaction,
    /// where every write changes it and nothing is cached.
    private func currentVersion() throws -> ResultsVersion? {
        guard !realm.isInWriteTransaction else { return nil }
        let storageVersion = try realm.read { snapshot in try snapshot.storageVersion() }
        return ResultsVersion(commits: realm.commitVersion, storageVersion: storageVersion)
    }

    // MARK: Iteration

    /// The error that ended the last iteration early, if one did.
    public var iterationError: (any Error)? { cache.iterationError }

    /// Iterates the objects a window at a time.
    public func makeIterator() -> Iterator {
        cache.iterationError = nil
        return Iterator(results: self)
    }

    /// Reads the results a window at a time; stops at the end or at a read that fails.
    public struct Iterator: IteratorProtocol {
        private let results: Results
        private var buffer: [Element] = []
        private var position = 0
        private var nextStart = 0
        private var finished = false

        init(results: Results) {
            self.results = results
        }

        public mutating func next() -> Element? {
            if position == buffer.count {
                guard !finished else { return nil }
                do {
                    buffer = try results.readWindow(at: nextStart)
                } catch {
                    results.cache.iterationError = error
                    buffer = []
                }
                position = 0
                nextStart += Results.windowSize
                finished = buffer.count < Results.windowSize
                if buffer.isEmpty { return nil }
            }
            defer { position += 1 }
            return buffer[position]
        }
    }

    /// At most the number of objects matching, without reading them: zero, as `Sequence` allows.
    public var underestimatedCount: Int { 0 }
}

/// A sort key of `Results.sorted(by:)`: a key path and a direction.
public struct SortDescriptor: Sendable, Equatable {
    /// A key path such as `name` or `owner.name`.
    public var keyPath: String
    /// Whether smaller values come first.
    public var ascending: Bool

    /// Makes a sort descriptor.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}

/// The realm state a cached read belongs to: this realm's commits and the storage's count of other
/// connections' commits.
struct ResultsVersion: Equatable {
    var commits: Int
    var storageVersion: Int64
}

/// What a `Results` remembers between reads; a class so that copies of one `Results` share it.
///
/// `@unchecked Sendable`: its fields are read and written only under `lock`. `Results` is `Sendable`
/// only when its elements are, so the elements it hands out may be shared.
final class ResultsCache<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var _count: (version: ResultsVersion, value: Int)?
    private var _window: (version: ResultsVersion, start: Int, elements: [Element])?
    private var _iterationError: (any Error)?

    var count: (version: ResultsVersion, value: Int)? {
        get { lock.withLock { _count } }
        set { lock.withLock { _count = newValue } }
    }

    var window: (version: ResultsVersion, start: Int, elements: [Element])? {
        get { lock.withLock { _window } }
        set { lock.withLock { _window = newValue } }
    }

    var iterationError: (any Error)? {
        get { lock.withLock { _iterationError } }
        set { lock.withLock { _iterationError = newValue } }
    }
}

extension Results: Sendable where Element: Sendable {}
