/// Where `ObjectStream` puts the documents it assembles: a document writer (export) or another
/// realm (copy).
protocol ObjectStreamSink: AnyObject {
    /// Bytes written so far, for progress (0 where there are none).
    var bytesWritten: Int { get }
    /// Takes the top-level object `source`, from `objects` as stored rows or as a document value;
    /// `tagged` when the stream holds several types.
    func write(_ source: ObjectRef, tagged: Bool, from objects: StoredObjects) throws
    /// Takes the autoIncrement counters that stand above the highest key present.
    func keepCounters(_ counters: [(type: String, last: Int64)]) throws
}

/// Streams a realm's objects, as export writes them, into a sink from within one read transaction:
/// objects are loaded as they are written, so memory stays flat however large the realm.
///
/// A whole realm goes type by type in schema order: every object with a primary key (by key), every
/// object without one that nothing links to (by creation order), then what is only reachable through
/// cycles among objects without a key. A selection goes in the order given, and can bring along the
/// objects with a primary key that it links to (a copy's link closure).
struct ObjectStream {
    let snapshot: Realm.Snapshot
    let catalog: SchemaCatalog
    let sink: any ObjectStreamSink
    let census: any IncomingLinkCounting
    var onProgress: ((ExportProgress) -> Void)?
    var progressInterval = 1000
    /// What the progress reports count towards, when it was counted.
    var total: ExportTotal?
    /// What has been written so far.
    var summary: ExportSummary {
        var summary = written
        summary.objects = Dictionary(state.objects.all.map { ($0.name, $0.element) }, uniquingKeysWith: +)
        return summary
    }
    private var written = ExportSummary()
    private var documentsSinceProgress = 0
    private let objects: StoredObjects
    private let state: State

    /// What the assembler's closures share with the stream.
    private final class State {
        var root: ObjectRef?
        var written = ObjectIdSet()
        var objects = TypeNameMap<Int>()
        /// The sum of `objects`, kept for progress reports.
        var objectCount = 0
        var rootType: String?
        /// Objects with a primary key linked from what was written, when the closure is followed.
        var keyedLinks: [ObjectRef] = []
        var followsKeyedLinks = false
    }

    /// Makes a stream of `rootType`'s objects (a selection), or of the whole realm when it is `nil`,
    /// reading `blockSize` ids at a time (`ObjectBlocks.size(selecting:)`).
    init(
        snapshot: Realm.Snapshot, sink: any ObjectStreamSink, rootType: String?, blockSize: Int64 = ObjectBlocks.defaultSize
    ) throws {
        self.snapshot = snapshot
        let catalog = snapshot.catalog
        self.catalog = catalog
        self.sink = sink
        let blocks = snapshot.blocks(of: blockSize)
        // A selection counts only the links its documents can hold, so an object linked from
        // elsewhere in the realm gets no "$id" it does not need.
        let owners = try rootType.map { Set(try snapshot.typesReachable(from: $0)) }
        let census = try snapshot.linkCensus(owners: owners, blockSize: blockSize)
        self.census = census
        let state = State()
        state.rootType = rootType
        self.state = state
        let schema = catalog.schema
        let references = DocumentReferences(
            primaryKey: { ref in
                guard let key = try blocks.primaryKey(of: ref) else { return nil }
                if state.followsKeyedLinks && ref != state.root && !state.written.contains(ref) {
                    state.keyedLinks.append(ref)
                }
                return key
            },
            isShared: { ref in
                // A root counts as one more place it is reached from.
                let reached = try census.incoming(ref) + (ref == state.root ? 1 : 0)
                return reached > 1
            })
        objects = StoredObjects(schema: schema, blocks: blocks, references: references) { ref in
            state.objects.update(ref.type, orAdd: { 0 }) { $0 += 1 }
            state.objectCount += 1
            state.written.insert(ref)
        }
    }

    // MARK: Whole realm

    mutating func writeRealm() throws {
        let counters = try raisedCounters()
        if !counters.isEmpty { try sink.keepCounters(counters) }
        for type in catalog.schema.types where !type.isEmbedded {
            try snapshot.forEachObjectId(of: type, byPrimaryKey: true) { id in
                let ref = ObjectRef(type: type.name, id: id)
                // Objects without a key that something links to are nested there instead.
                if type.primaryKey == nil, try census.incoming(ref) > 0 { return }
                try writeRoot(ref, hasKeyProperty: type.primaryKey != nil, tagged: true)
            }
        }
        // What is left is only reachable through cycles among objects without a key.
        for type in catalog.schema.types where !type.isEmbedded && type.primaryKey == nil {
            try snapshot.forEachObjectId(of: type, byPrimaryKey: false) { id in
                let ref = ObjectRef(type: type.name, id: id)
                if !state.written.contains(ref) { try writeRoot(ref, hasKeyProperty: false, tagged: true) }
            }
        }
    }

    /// The autoIncrement counters that stand above the highest key present.
    private func raisedCounters() throws -> [(type: String, last: Int64)] {
        var counters: [(type: String, last: Int64)] = []
        for type in catalog.schema.types {
            guard let (last, highest) = try snapshot.autoIncrementCounter(of: type) else { continue }
            if last > highest { counters.append((type.name, last)) }
        }
        return counters
    }

    // MARK: A selection

    /// Writes the objects `ids` of `type`; with `followingKeyedLinks`, then every object with a
    /// primary key they link to, transitively, each once (documents tagged with `"$type"`).
    mutating func writeSelection(_ type: String, ids: [Int64], followingKeyedLinks: Bool = false) throws {
        state.followsKeyedLinks = followingKeyedLinks
        let hasKeyProperty = catalog.schema[type: type]?.primaryKey != nil
        if !hasKeyProperty {
            // Every selected object is a document of its own: links to one never nest it.
            var selected = ObjectIdSet()
            for id in ids { selected.insert(ObjectRef(type: type, id: id)) }
            objects.references.isRoot = { ref in selected.contains(ref) }
        }
        for id in ids {
            let ref = ObjectRef(type: type, id: id)
            if !state.written.contains(ref) { try writeRoot(ref, hasKeyProperty: hasKeyProperty, tagged: followingKeyedLinks) }
        }
        while let next = state.keyedLinks.popLast() {
            if !state.written.contains(next) { try writeRoot(next, hasKeyProperty: true, tagged: true) }
        }
    }

    // MARK: Writing

    private mutating func writeRoot(_ ref: ObjectRef, hasKeyProperty: Bool, tagged: Bool) throws {
        state.root = ref
        try objects.references.nameInAdvance(ref, hasKeyProperty: hasKeyProperty)
        try write(ref, tagged: tagged)
        state.root = nil
        // Chains too deep to nest continue in documents of their own, right after.
        var pending = objects.references.takeDeferred()
        while !pending.isEmpty {
            for deep in pending {
                guard tagged || deep.type == state.rootType else {
                    throw KuraError.store(
                        .nestingTooDeep,
                        "\(deep.type) objects nest deeper than \(DocumentReferences.maxNesting) levels under \(ref): export the whole realm")
                }
                try write(deep, tagged: tagged)
            }
            pending = objects.references.takeDeferred()
        }
    }

    private mutating func write(_ ref: ObjectRef, tagged: Bool) throws {
        try sink.write(ref, tagged: tagged, from: objects)
        written.documents[ref.type, default: 0] += 1
        written.bytes = sink.bytesWritten
        documentsSinceProgress += 1
        if documentsSinceProgress == progressInterval {
            documentsSinceProgress = 0
            onProgress?(
                ExportProgress(documents: written.totalDocuments, bytes: written.bytes, objects: state.objectCount, total: total))
        }
    }
}

/// A set of objects as one bit per object id and type, so a realm of millions costs kilobytes.
struct ObjectIdSet {
    private var bits = TypeNameMap<[UInt64]>()

    mutating func insert(_ ref: ObjectRef) {
        guard ref.id >= 0 else { return }
        let word = Int(ref.id / 64)
        bits.update(ref.type, orAdd: { [] }) { words in
            if words.count <= word { words.append(contentsOf: repeatElement(0, count: word + 1 - words.count)) }
            words[word] |= 1 << UInt64(ref.id % 64)
        }
    }

    func contains(_ ref: ObjectRef) -> Bool {
        guard ref.id >= 0, let words = bits.element(ref.type) else { return false }
        let word = Int(ref.id / 64)
        return word < words.count && words[word] & (1 << UInt64(ref.id % 64)) != 0
    }
}
