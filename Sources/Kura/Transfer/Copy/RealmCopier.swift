import Foundation

/// What `RealmCopier` copies: the objects of one type (optionally filtered) or the whole realm.
public struct CopyOptions: Sendable, Equatable {
    /// The type whose objects are selected; `nil` copies the whole realm.
    public var type: String?
    /// A predicate in Realm Query Language selecting the objects of `type`.
    public var predicate: String?
    /// The values of the predicate's `$0`, `$1` … placeholders.
    public var arguments: [Value] = []
    /// How objects whose primary key the destination already holds are treated (the import modes).
    public var mode: UpdatePolicy
    /// Leaves out whole a top-level object the destination holds already, with the objects nested
    /// in it, and counts it as unchanged: copying again changes nothing. It is found by primary
    /// key, or, for a type without one, as `ImportOptions.skipExisting` finds it.
    public var skipExisting = false

    /// Makes options; the defaults copy the whole realm and refuse existing primary keys.
    public init(type: String? = nil, predicate: String? = nil, mode: UpdatePolicy = .error) {
        self.type = type
        self.predicate = predicate
        self.mode = mode
    }
}

/// Copies objects from one realm into another: the selected objects and everything they link
/// to, transitively, embedded objects included. Each source object is copied once, so cycles and
/// shared objects keep their shape; objects with a primary key are matched by key under the mode,
/// those without one as an import matches them (`ObjectWriter.updateHeld`, `matchedObject`): the
/// realm keeps no record of which source object an earlier copy made which object from.
///
/// The destination's schema is checked before anything is written, and the copy is one transaction:
/// it happens whole or not at all. The source is read in one read transaction.
public struct RealmCopier {
    /// The realm read from.
    public let source: Realm
    /// The realm written to.
    public let destination: Realm
    /// What is copied and how.
    public let options: CopyOptions
    /// Called now and then with how far the copy has got towards a total counted before it
    /// starts, as an export counts it: every object for a whole realm, the selected objects for
    /// a type (`bytes` stays 0).
    public var onProgress: ((ExportProgress) -> Void)?
    /// How many documents pass between progress reports of an object-by-object copy.
    public var progressInterval = 1000
    /// Whether a whole-realm copy between two realm files may be made in SQL, table by table
    /// (when nothing needs judging object by object); off only to compare the two ways in tests.
    var allowsSetBasedCopy = true

    /// Makes a copier from `source` into `destination`.
    public init(source: Realm, destination: Realm, options: CopyOptions = CopyOptions()) {
        self.source = source
        self.destination = destination
        self.options = options
    }

    /// Copies, and returns the objects inserted, updated and unchanged in the destination per type.
    public func run() throws -> [String: ChangeCounts] {
        if Self.sameFile(source.configuration, destination.configuration) {
            throw KuraError.transfer(.usage, "the source and the destination are the same realm")
        }
        let catalog = source.catalog
        if let type = options.type {
            let schema = try catalog.type(type)
            if schema.isEmbedded {
                throw KuraError.transfer(.usage, "\(type) is embedded: copy its parents, which bring it along")
            }
        }
        try checkDestinationSchema()
        guard options.type == nil, allowsSetBasedCopy else { return try copyObjects(setBasedFirst: false) }
        return try destination.connection.withSetBasedSource(source.connection) { attached in
            try copyObjects(setBasedFirst: attached)
        }
    }

    /// Copies in one destination transaction: in SQL when `setBasedFirst` and the realms allow it,
    /// otherwise object by object from a read transaction of the source.
    private func copyObjects(setBasedFirst: Bool) throws -> [String: ChangeCounts] {
        try destination.write {
            if setBasedFirst {
                let transaction = try destination.requireTransaction()
                let progress = onProgress.map { onProgress in
                    { (copied: Int, total: Int?) in
                        onProgress(ExportProgress(documents: copied, bytes: 0, objects: copied, total: total.map { .objects($0) }))
                    }
                }
                if let counts = try transaction.storage.copySetBased(
                    from: source.catalog, findsUnkeyedObjects: options.mode != .error || options.skipExisting, onProgress: progress
                ) { return counts }
            }
            let sink = RealmSink(realm: destination, mode: options.mode, skipExisting: options.skipExisting)
            try source.read { snapshot in
                var stream = try ObjectStream(snapshot: snapshot, sink: sink, rootType: options.type)
                stream.onProgress = onProgress
                stream.progressInterval = progressInterval
                if let type = options.type {
                    let ids = try RealmExporter.selectedIds(type, predicate: options.predicate, arguments: options.arguments, in: snapshot)
                    if onProgress != nil { stream.total = .documents(ids.count) }
                    try stream.writeSelection(type, ids: ids, followingKeyedLinks: true)
                } else {
                    if onProgress != nil { stream.total = .objects(try RealmExporter.objectCount(in: snapshot, schema: snapshot.catalog.schema)) }
                    try stream.writeRealm()
                }
            }
            return try destination.changeCounts().merging(sink.existing.mapValues { ChangeCounts(unchanged: $0) }) {
                ChangeCounts(inserted: $0.inserted, updated: $0.updated, unchanged: $0.unchanged + $1.unchanged, deleted: $0.deleted)
            }
        }
    }

    /// Whether two configurations name one realm file, however the paths are spelled.
    private static func sameFile(_ first: Realm.Configuration, _ second: Realm.Configuration) -> Bool {
        first.sharedName != nil && first.sharedName == second.sharedName
    }

    /// Every type the copy may bring must fit the destination; types without objects are skipped.
    private func checkDestinationSchema() throws {
        try source.schema.checkCopy(of: try source.typesCopied(by: options), into: destination.schema)
    }
}

extension Realm {
    /// The types of which a copy with `options` may take objects: those reachable from
    /// `options.type` through links (every type without one) that hold objects.
    public func typesCopied(by options: CopyOptions) throws -> [String] {
        let candidates = try options.type.map { type in
            try read { snapshot in try snapshot.typesReachable(from: type) }
        } ?? schema.types.map(\.name)
        var types: [String] = []
        for type in candidates where try hasObjects(type) { types.append(type) }
        return types
    }
}

/// Copy's sink: each document is created in the destination realm, references resolving in one scope.
private final class RealmSink: ObjectStreamSink {
    let realm: Realm
    let mode: UpdatePolicy
    let skipExisting: Bool
    let references = ReferenceScope()
    /// The top-level objects left out because the destination holds their key, by type.
    private(set) var existing: [String: Int] = [:]

    init(realm: Realm, mode: UpdatePolicy, skipExisting: Bool) {
        self.realm = realm
        self.mode = mode
        self.skipExisting = skipExisting
    }

    var bytesWritten: Int { 0 }

    func write(_ source: ObjectRef, tagged: Bool, from objects: StoredObjects) throws {
        let document = try objects.document(source)
        let path = "source object \(source)"
        if skipExisting,
            try realm.holdsObject(source.type, keyIn: document)
                || realm.holdsMatch(source.type, document: document, references: references, path: path)
        {
            existing[source.type, default: 0] += 1
            return
        }
        try realm.create(source.type, value: document, update: mode, references: references, path: path)
    }

    func keepCounters(_ counters: [(type: String, last: Int64)]) throws {
        let transaction = try realm.requireTransaction()
        for (type, last) in counters where realm.schema[type: type]?.primaryKeyProperty?.isAutoIncrement == true {
            try transaction.noteExplicitKey(type, last)
        }
    }
}
