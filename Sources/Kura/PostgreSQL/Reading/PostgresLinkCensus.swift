/// Counts the places that link to an object in a PostgreSQL realm, a block of target ids at a time
/// for typed links and once, up front, for links held in mixed values.
final class PostgresLinkCensus: IncomingLinkCounting {
    private let session: PostgresSession
    private let catalog: SchemaCatalog
    private let owners: Set<String>?
    private let blockSize: Int64
    private var targets = TypeNameMap<PostgresTargetCounts>()
    private var mixedLinks: [ObjectRef: Int] = [:]
    private var last: (ref: ObjectRef, count: Int)?

    /// Counts links held by objects of `owners` (every type when `nil`).
    init(session: PostgresSession, catalog: SchemaCatalog, owners: Set<String>?, blockSize: Int64) throws {
        self.session = session
        self.catalog = catalog
        self.owners = owners
        self.blockSize = blockSize
        try countMixedLinks()
    }

    /// The types whose objects `type`'s objects reach through links, `type` first.
    static func typesReachable(from type: String, session: PostgresSession, catalog: SchemaCatalog) throws -> [String] {
        var linkedFromMixed: Set<String> = []
        let places = catalog.mixedSites.isEmpty ? [] : catalog.mixedLinkColumns
        if !places.isEmpty {
            // One statement for every place: each statement is a round trip to the server.
            let sql = places.map { place in
                "SELECT \(place.tag) FROM \(place.table) WHERE \(MixedTag.linkTerm(place.tag))"
            }.joined(separator: "\nUNION\n")
            for row in try session.rows(sql) {
                if let tag = row.first?.objectId, let name = catalog.typeNames[tag - MixedTag.linkBase] { linkedFromMixed.insert(name) }
            }
        }
        return catalog.schema.typesReachable(from: type, mixedTargets: linkedFromMixed)
    }

    func incoming(_ ref: ObjectRef) throws -> Int {
        if let last, last.ref == ref { return last.count }
        var total = mixedLinks.isEmpty ? 0 : mixedLinks[ref] ?? 0
        let target = targets.update(ref.type, orAdd: { makeTargetCounts(ref.type) }) { $0 }
        if let read = target.window.read(for: ref.id) {
            let counted = try target.count(read.ids, session: session)
            if read.isBlock { target.counts = counted } else { total += counted.first ?? 0 }
        }
        let block = target.window.block
        if block.contains(ref.id) { total += target.counts[Int(ref.id - block.lowerBound)] }
        last = (ref, total)
        return total
    }

    private func makeTargetCounts(_ type: String) -> PostgresTargetCounts {
        var statements: [String] = []
        for link in catalog.incoming[type] ?? [] where owners?.contains(link.ownerType) ?? true {
            let name = link.property.name
            let (table, column) = link.property.type.isCollection
                ? (TableLayout.collectionTable(link.ownerType, name), TableLayout.valueColumn)
                : (TableLayout.objectTable(link.ownerType), TableLayout.column(name))
            statements.append("SELECT \(column) FROM \(table) WHERE \(column) >= $1 AND \(column) < $2")
        }
        return PostgresTargetCounts(statements: statements, blockSize: blockSize)
    }

    private func countMixedLinks() throws {
        guard !catalog.mixedSites.isEmpty else { return }
        // Nested containers belong to no one type, so they always count.
        let places = catalog.mixedLinkColumns.filter { place in place.ownerType.map { owners?.contains($0) ?? true } ?? true }
        guard !places.isEmpty else { return }
        // One statement for every place, as above; every place's values are bytea, so the parts unite.
        let sql = places.map { place in
            """
            SELECT \(place.tag), \(place.value), count(*) FROM \(place.table) WHERE \(MixedTag.linkTerm(place.tag))
            GROUP BY \(place.tag), \(place.value)
            """
        }.joined(separator: "\nUNION ALL\n")
        for row in try session.rows(sql) where row.count == 3 {
            guard let tag = row[0].objectId, let count = row[2].objectId, let typeName = catalog.typeNames[tag - MixedTag.linkBase],
                case .integer(let id) = try PostgresLayout.readMixed(row[1], tag: tag)
            else { continue }
            mixedLinks[ObjectRef(type: typeName, id: id), default: 0] += Int(count)
        }
    }
}

/// The typed link sites of one target type, and their counts for the current block of its ids.
private final class PostgresTargetCounts {
    let statements: [String]
    var window: ReadWindow
    /// Links to each id of the window's block, by id minus the block's first id.
    var counts: [Int] = []

    init(statements: [String], blockSize: Int64) {
        self.statements = statements
        window = ReadWindow(size: blockSize)
    }

    /// How many typed links reach each id in `ids`, by id minus the first id.
    func count(_ ids: Range<Int64>, session: PostgresSession) throws -> [Int] {
        var counts = [Int](repeating: 0, count: Int(ids.upperBound - ids.lowerBound))
        for sql in statements {
            for row in try session.rows(sql, [.integer(ids.lowerBound), .integer(ids.upperBound)]) {
                guard let id = row.first?.objectId, ids.contains(id) else { continue }
                counts[Int(id - ids.lowerBound)] += 1
            }
        }
        return counts
    }
}
