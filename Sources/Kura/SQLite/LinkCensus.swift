import GRDB

/// Counts the places that link to an object (link properties, collection elements and mixed values),
/// which tells an export whether an object is reached more than once and so needs an `"$id"`.
///
/// Typed links are counted through their indexes a block of ids at a time (`ReadWindow`); links in
/// mixed values (rare, and not indexed) are counted once, up front.
final class LinkCensus: IncomingLinkCounting {
    private let db: Database
    private let catalog: SchemaCatalog
    /// Per target type, the counts of typed links to its current block of ids.
    private var targets = TypeNameMap<TargetCounts>()
    private let owners: Set<String>?
    private var mixedLinks: [ObjectRef: Int] = [:]
    private var last: (ref: ObjectRef, count: Int)?
    private let blockSize: Int64

    /// Counts links held by objects of `owners` (every type when `nil`), a block of `blockSize`
    /// target ids at a time. Its statements are the connection's cached ones.
    init(db: Database, catalog: SchemaCatalog, owners: Set<String>? = nil, blockSize: Int64 = ObjectBlocks.defaultSize) throws {
        self.db = db
        self.catalog = catalog
        self.owners = owners
        self.blockSize = blockSize
        try countMixedLinks()
    }

    /// The types whose objects `type`'s objects reach through links, `type` first: mixed values
    /// reach only the types that links stored in mixed values (anywhere in the realm) point to.
    static func typesReachable(from type: String, db: Database, catalog: SchemaCatalog) throws -> [String] {
        var linkedFromMixed: Set<String> = []
        if !catalog.mixedSites.isEmpty {
            for place in catalog.mixedLinkColumns {
                let tags = try Int64.fetchAll(db.cachedStatement(sql: """
                    SELECT DISTINCT \(place.tag) FROM \(place.table) WHERE \(MixedTag.linkTerm(place.tag))
                    """))
                for tag in tags {
                    if let name = catalog.typeNames[tag - MixedTag.linkBase] { linkedFromMixed.insert(name) }
                }
            }
        }
        return catalog.schema.typesReachable(from: type, mixedTargets: linkedFromMixed)
    }

    /// How many places link to `ref`.
    func incoming(_ ref: ObjectRef) throws -> Int {
        // An export asks about one object several times in a row (is it a root, does it need an "$id").
        if let last, last.ref == ref { return last.count }
        var total = mixedLinks.isEmpty ? 0 : mixedLinks[ref] ?? 0
        let target = try targetCounts(ref.type)
        if let read = target.window.read(for: ref.id) {
            let counted = try target.count(read.ids)
            if read.isBlock { target.counts = counted } else { total += counted.first ?? 0 }
        }
        let block = target.window.block
        if block.contains(ref.id) { total += target.counts[Int(ref.id - block.lowerBound)] }
        last = (ref, total)
        return total
    }

    private func targetCounts(_ type: String) throws -> TargetCounts {
        try targets.update(type, orAdd: { try makeTargetCounts(type) }) { $0 }
    }

    private func makeTargetCounts(_ type: String) throws -> TargetCounts {
        var statements: [DirectStatement] = []
        for link in catalog.incoming[type] ?? [] where owners?.contains(link.ownerType) ?? true {
            let name = link.property.name
            let (table, column) = link.property.type.isCollection
                ? (TableLayout.collectionTable(link.ownerType, name), TableLayout.valueColumn)
                : (TableLayout.objectTable(link.ownerType), TableLayout.column(name))
            statements.append(try DirectStatement(db, sql: """
                SELECT \(column) FROM \(table) WHERE \(column) >= ? AND \(column) < ?
                """, cached: true))
        }
        return TargetCounts(statements: statements, blockSize: blockSize)
    }

    private func countMixedLinks() throws {
        guard !catalog.mixedSites.isEmpty else { return }
        // Nested containers belong to no one type, so they always count.
        for place in catalog.mixedLinkColumns where place.ownerType.map({ owners?.contains($0) ?? true }) ?? true {
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(place.tag), \(place.value), count(*) FROM \(place.table) WHERE \(MixedTag.linkTerm(place.tag))
                GROUP BY \(place.tag), \(place.value)
                """))
            for row in rows {
                guard let tagValue = row[0] as Int64?, let id = row[1] as Int64?, let count = row[2] as Int?,
                    let typeName = catalog.typeNames[tagValue - MixedTag.linkBase]
                else { continue }
                mixedLinks[ObjectRef(type: typeName, id: id), default: 0] += count
            }
        }
    }
}

/// The typed link sites of one target type, and their counts for the current block of its ids.
private final class TargetCounts {
    let statements: [DirectStatement]
    var window: ReadWindow
    /// Links to each id of the window's block, by id minus the block's first id.
    var counts: [Int] = []

    init(statements: [DirectStatement], blockSize: Int64) {
        self.statements = statements
        window = ReadWindow(size: blockSize)
    }

    /// How many typed links reach each id in `ids`, by id minus the first id.
    func count(_ ids: Range<Int64>) throws -> [Int] {
        var counts = [Int](repeating: 0, count: Int(ids.upperBound - ids.lowerBound))
        let bounds = [ids.lowerBound.databaseValue, ids.upperBound.databaseValue]
        for statement in statements {
            try statement.forEachRow(bounds) { row in
                guard let id = row.int64(0), ids.contains(id) else { return }
                counts[Int(id - ids.lowerBound)] += 1
            }
        }
        return counts
    }
}
