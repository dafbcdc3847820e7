
/// Writes a realm's objects as documents that import reads back, streaming from one read
/// transaction: objects are loaded as they are written, so memory stays flat however large the realm.
///
/// A whole-realm export writes, type by type in schema order, every object with a primary key (by
/// key) and every object without one that nothing links to (by creation order), each led by
/// `"$type"`; objects without a key that are linked are nested where they are first reached, and
/// those only reachable through a cycle among themselves come last. Objects reached twice carry
/// `"$id"` where first written and are `{"$ref": id}` after. When deletions left an autoIncrement
/// counter above the keys present, a first `{"$realm": …}` document carries it.
public struct RealmExporter {
    /// The realm read from.
    public let realm: Realm
    /// What is exported.
    public let options: ExportOptions
    /// Called now and then with how far the export has got.
    public var onProgress: ((ExportProgress) -> Void)?
    /// How many documents pass between progress reports.
    public var progressInterval = 1000
    /// Called once the objects of `options.type` the export selects are known, with how many,
    /// before the first is written: the documents after them (objects they link to, chains too
    /// deep to nest) are not part of the selection.
    public var onSelection: ((Int) -> Void)?

    /// Makes an exporter of `realm`.
    public init(realm: Realm, options: ExportOptions = ExportOptions()) {
        self.realm = realm
        self.options = options
    }

    /// Writes the documents to `writer` and finishes it.
    public func run(to writer: DocumentWriter) throws -> ExportSummary {
        let catalog = realm.catalog
        if let type = options.type { try checkExportable(type, catalog) }
        try checkLayout(of: writer, catalog)
        var next: QueryCursor?
        var summary = try realm.read { snapshot in
            let sink = WriterSink(writer: writer)
            // A few objects (one by key, a short page) read blocks no larger than the selection.
            let selected = options.type == nil ? nil : options.objectIds?.count ?? options.limit
            var stream = try ObjectStream(
                snapshot: snapshot, sink: sink, rootType: options.type, blockSize: ObjectBlocks.size(selecting: selected))
            stream.onProgress = onProgress
            stream.progressInterval = progressInterval
            if let type = options.type {
                let ids: [Int64]
                if let objectIds = options.objectIds {
                    ids = try objectIds.filter { try snapshot.objectExists(ObjectRef(type: type, id: $0)) }
                } else if let limit = options.limit {
                    // One more than the page, to know whether a next page starts after it.
                    let query = try Self.selection(
                        type, predicate: options.predicate, arguments: options.arguments, sort: options.sort, after: options.after,
                        limit: min(limit, Int.max - 1) + 1,
                        catalog: catalog)
                    let page = try snapshot.page(matching: query, limit: limit)
                    ids = page.ids
                    next = page.next
                } else {
                    ids = try snapshot.ids(matching: Self.selection(
                        type, predicate: options.predicate, arguments: options.arguments, sort: options.sort, after: options.after,
                        limit: nil, catalog: catalog))
                }
                if onProgress != nil { stream.total = .documents(ids.count) }
                onSelection?(ids.count)
                try stream.writeSelection(type, ids: ids, followingKeyedLinks: options.followingLinks)
            } else {
                if onProgress != nil { stream.total = .objects(try Self.objectCount(in: snapshot, schema: catalog.schema)) }
                try stream.writeRealm()
            }
            return stream.summary
        }
        try writer.finish()
        summary.bytes = writer.bytesWritten
        summary.next = next
        return summary
    }

    /// Stored rows are written by position, so the writer's schema must lay out every type it
    /// shares with the realm the same way (a type it lacks is refused when one of its objects is met).
    private func checkLayout(of writer: DocumentWriter, _ catalog: SchemaCatalog) throws {
        for type in catalog.schema.types {
            guard let written = writer.propertyNames(of: type.name) else { continue }
            guard written == type.storedProperties.map(\.name) else {
                throw KuraError.store(
                    .schemaMismatch, "the writer's schema lays out \(type.name) unlike the realm's: write with the realm's schema")
            }
        }
    }

    private func checkExportable(_ name: String, _ catalog: SchemaCatalog) throws {
        let type = try catalog.type(name)
        if type.isEmbedded {
            throw KuraError.store(.embeddedMisuse, "\(name) is embedded: its objects are exported nested in their parents")
        }
    }

    /// How many objects the realm holds, embedded ones included: what a whole-realm export writes.
    static func objectCount(in snapshot: some StorageSnapshot, schema: Schema) throws -> Int {
        try schema.types.reduce(0) { sum, type in sum + (try snapshot.objectCount(of: type.name)) }
    }

    /// The query of the objects of `type` that `predicate` selects, sorted by `sort` (by primary
    /// key, or creation order, by default), from `after`, cut to `limit`.
    private static func selection(
        _ type: String, predicate: String?, arguments: [Value], sort: String?, after: QueryCursor? = nil, limit: Int?,
        catalog: SchemaCatalog
    ) throws -> ObjectQuery {
        let schema = try catalog.type(type)
        return try ObjectQuery(
            type, where: predicate, arguments: arguments, sortedBy: sort, limit: limit, after: after,
            baseSort: sort == nil ? schema.primaryKey : nil, catalog: catalog, allowsAsymmetric: true)
    }

    /// The ids of the objects of `type` that `predicate` selects, sorted by `sort` (by primary key,
    /// or creation order, by default) and cut to `limit`.
    static func selectedIds(
        _ type: String, predicate: String?, arguments: [Value] = [], sort: String? = nil, limit: Int? = nil, in snapshot: Realm.Snapshot
    ) throws -> [Int64] {
        try snapshot.ids(
            matching: selection(type, predicate: predicate, arguments: arguments, sort: sort, limit: limit, catalog: snapshot.catalog))
    }
}

/// Export's sink: stored objects are written as text by a `DocumentWriter`, counters to a `{"$realm": …}` document.
private final class WriterSink: ObjectStreamSink {
    let writer: DocumentWriter

    init(writer: DocumentWriter) { self.writer = writer }

    var bytesWritten: Int { writer.bytesWritten }

    func write(_ source: ObjectRef, tagged: Bool, from objects: StoredObjects) throws {
        try writer.writeStored(source, tagged: tagged, from: objects)
    }

    func keepCounters(_ counters: [(type: String, last: Int64)]) throws {
        try writer.writeRealmDocument(autoIncrement: counters)
    }
}
