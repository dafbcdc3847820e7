import GRDB

/// Writes a realm's objects as documents that import reads back (SPEC §5), streaming from one read
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

    /// Makes an exporter of `realm`.
    public init(realm: Realm, options: ExportOptions = ExportOptions()) {
        self.realm = realm
        self.options = options
    }

    /// Writes the documents to `writer` and finishes it.
    public func run(to writer: DocumentWriter) throws -> ExportSummary {
        let catalog = realm.catalog
        if let type = options.type { try checkExportable(type, catalog) }
        var summary = try realm.read { db in
            var session = try ExportSession(
                db: db, catalog: catalog, writer: writer, rootType: options.type, onProgress: onProgress,
                progressInterval: progressInterval)
            if let type = options.type {
                try session.exportType(type, ids: try rootIds(type, db: db, catalog: catalog))
            } else {
                try session.exportRealm()
            }
            return session.summary
        }
        try writer.finish()
        summary.bytes = writer.bytesWritten
        return summary
    }

    private func checkExportable(_ name: String, _ catalog: SchemaCatalog) throws {
        let type = try catalog.type(name)
        if type.isEmbedded {
            throw StoreError(.embeddedMisuse, "\(name) is embedded: its objects are exported nested in their parents")
        }
    }

    /// The ids of the objects of `type` to export, in order.
    private func rootIds(_ type: String, db: Database, catalog: SchemaCatalog) throws -> [Int64] {
        let schema = try catalog.type(type)
        var order = TableLayout.idColumn
        if let key = schema.primaryKey { order = TableLayout.column(key) + ", " + order }
        var sql = "SELECT \(TableLayout.idColumn) FROM \(TableLayout.objectTable(type)) ORDER BY \(order)"
        if let limit = options.limit { sql += " LIMIT \(max(0, limit))" }
        return try Int64.fetchAll(db, sql: sql)
    }
}

/// The state of one export: the assembler, which objects were written, and the counts.
private struct ExportSession {
    let db: Database
    let catalog: SchemaCatalog
    let writer: DocumentWriter
    let reader: ObjectReader
    let census: LinkCensus
    let onProgress: ((ExportProgress) -> Void)?
    let progressInterval: Int
    var summary = ExportSummary()
    private var assembler: DocumentAssembler
    private let state: State

    /// What the assembler's closures share with the session.
    private final class State {
        var root: ObjectRef?
        var written = WrittenObjects()
        var objects: [String: Int] = [:]
        var rootType: String?
    }

    init(
        db: Database, catalog: SchemaCatalog, writer: DocumentWriter, rootType: String?,
        onProgress: ((ExportProgress) -> Void)?, progressInterval: Int
    ) throws {
        self.db = db
        self.catalog = catalog
        self.writer = writer
        self.onProgress = onProgress
        self.progressInterval = progressInterval
        let reader = ObjectReader(db: db, catalog: catalog)
        self.reader = reader
        let owners = rootType.map { Self.reachableTypes(from: $0, catalog.schema) } ?? nil
        let census = try LinkCensus(db: db, catalog: catalog, owners: owners)
        self.census = census
        let state = State()
        state.rootType = rootType
        self.state = state
        let schema = catalog.schema
        assembler = DocumentAssembler(
            schema: schema,
            load: { ref in
                state.objects[ref.type, default: 0] += 1
                state.written.insert(ref)
                return try reader.values(of: ref)
            },
            primaryKey: { ref in
                guard let type = schema[type: ref.type], let key = type.primaryKeyProperty else { return nil }
                return try reader.value(of: ref, key)
            },
            isShared: { ref in
                // A root counts as one more place it is reached from.
                let reached = try census.incoming(ref) + (ref == state.root ? 1 : 0)
                return reached > 1
            })
        if let rootType, schema[type: rootType]?.primaryKey == nil {
            // Every object of the exported type is a document of its own: links to one never nest it.
            assembler.isRoot = { ref in ref.type == rootType }
        }
    }

    // MARK: Whole realm

    mutating func exportRealm() throws {
        let counters = try raisedCounters()
        if !counters.isEmpty { try writer.writeRealmDocument(autoIncrement: counters) }
        for type in catalog.schema.types where !type.isEmbedded {
            let order = type.primaryKey.map { TableLayout.column($0) + ", " } ?? ""
            let ids = try Int64.fetchCursor(
                db, sql: "SELECT \(TableLayout.idColumn) FROM \(TableLayout.objectTable(type.name)) ORDER BY \(order)\(TableLayout.idColumn)")
            while let id = try ids.next() {
                let ref = ObjectRef(type: type.name, id: id)
                // Objects without a key that something links to are nested there instead.
                if type.primaryKey == nil, try census.incoming(ref) > 0 { continue }
                try writeRoot(ref, tagged: true)
            }
        }
        // What is left is only reachable through cycles among objects without a key.
        for type in catalog.schema.types where !type.isEmbedded && type.primaryKey == nil {
            let ids = try Int64.fetchCursor(
                db, sql: "SELECT \(TableLayout.idColumn) FROM \(TableLayout.objectTable(type.name)) ORDER BY \(TableLayout.idColumn)")
            while let id = try ids.next() {
                let ref = ObjectRef(type: type.name, id: id)
                if !state.written.contains(ref) { try writeRoot(ref, tagged: true) }
            }
        }
    }

    /// The autoIncrement counters that stand above the highest key present.
    private func raisedCounters() throws -> [(type: String, last: Int64)] {
        var counters: [(type: String, last: Int64)] = []
        for type in catalog.schema.types {
            guard let key = type.primaryKeyProperty, key.isAutoIncrement else { continue }
            let last = try Int64.fetchOne(
                db, sql: "SELECT \"lastKey\" FROM \(TableLayout.typesTable) WHERE \"name\" = ?", arguments: [type.name]) ?? 0
            let highest = try Int64.fetchOne(
                db, sql: "SELECT max(\(TableLayout.column(key.name))) FROM \(TableLayout.objectTable(type.name))") ?? 0
            if last > highest { counters.append((type.name, last)) }
        }
        return counters
    }

    // MARK: One type

    mutating func exportType(_ type: String, ids: [Int64]) throws {
        for id in ids { try writeRoot(ObjectRef(type: type, id: id), tagged: false) }
    }

    // MARK: Writing

    private mutating func writeRoot(_ ref: ObjectRef, tagged: Bool) throws {
        state.root = ref
        try assembler.nameInAdvance(ref)
        try write(ref, tagged: tagged)
        state.root = nil
        // Chains too deep to nest continue in documents of their own, right after.
        var pending = assembler.takeDeferred()
        while !pending.isEmpty {
            for deep in pending {
                guard tagged || deep.type == state.rootType else {
                    throw StoreError(
                        .nestingTooDeep,
                        "\(deep.type) objects nest deeper than \(DocumentAssembler.maxNesting) levels under \(ref): export the whole realm")
                }
                try write(deep, tagged: tagged)
            }
            pending = assembler.takeDeferred()
        }
    }

    private mutating func write(_ ref: ObjectRef, tagged: Bool) throws {
        let document = try assembler.document(ref)
        try writer.write(document, as: ref.type, tagged: tagged)
        summary.documents[ref.type, default: 0] += 1
        summary.objects = state.objects
        summary.bytes = writer.bytesWritten
        if summary.totalDocuments % progressInterval == 0 {
            onProgress?(ExportProgress(documents: summary.totalDocuments, bytes: summary.bytes))
        }
    }

    /// The types whose objects an export of `type` can reach through links; `nil` when a mixed
    /// property is among them, since a mixed value may link to any type.
    private static func reachableTypes(from type: String, _ schema: Schema) -> Set<String>? {
        var reached: Set<String> = [type]
        var pending = [type]
        while let name = pending.popLast() {
            for property in schema[type: name]?.storedProperties ?? [] {
                if property.type == .mixed || property.type.element == .mixed { return nil }
                if let target = property.type.objectTypeName, reached.insert(target).inserted { pending.append(target) }
            }
        }
        return reached
    }
}

/// Which objects were written, one bit per object id and type, so a realm of millions costs kilobytes.
private struct WrittenObjects {
    private var bits: [String: [UInt64]] = [:]

    mutating func insert(_ ref: ObjectRef) {
        guard ref.id >= 0 else { return }
        let word = Int(ref.id / 64)
        var words = bits[ref.type] ?? []
        bits[ref.type] = nil  // keeps the array uniquely referenced while it changes
        if words.count <= word { words.append(contentsOf: repeatElement(0, count: word + 1 - words.count)) }
        words[word] |= 1 << UInt64(ref.id % 64)
        bits[ref.type] = words
    }

    func contains(_ ref: ObjectRef) -> Bool {
        guard ref.id >= 0, let words = bits[ref.type] else { return false }
        let word = Int(ref.id / 64)
        return word < words.count && words[word] & (1 << UInt64(ref.id % 64)) != 0
    }
}
