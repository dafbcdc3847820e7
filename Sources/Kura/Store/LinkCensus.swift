import GRDB

/// Counts the places that link to an object (link properties, collection elements and mixed values),
/// which tells an export whether an object is reached more than once and so needs an `"$id"`.
///
/// Typed links are counted per object through their indexes; links in mixed values (rare, and not
/// indexed) are counted once, up front.
final class LinkCensus {
    private let db: Database
    private let catalog: SchemaCatalog
    /// Per target type, one statement summing the counts of every typed link site.
    private var statements: [String: Statement?] = [:]
    private let owners: Set<String>?
    private var mixedLinks: [ObjectRef: Int] = [:]
    private var last: (ref: ObjectRef, count: Int)?

    /// Counts links held by objects of `owners` (every type when `nil`).
    init(db: Database, catalog: SchemaCatalog, owners: Set<String>? = nil) throws {
        self.db = db
        self.catalog = catalog
        self.owners = owners
        try countMixedLinks()
    }

    /// How many places link to `ref`.
    func incoming(_ ref: ObjectRef) throws -> Int {
        // An export asks about one object several times in a row (is it a root, does it need an "$id").
        if let last, last.ref == ref { return last.count }
        var total = mixedLinks[ref] ?? 0
        if let statement = try statement(for: ref.type) {
            total += try Int.fetchOne(statement, arguments: [ref.id]) ?? 0
        }
        last = (ref, total)
        return total
    }

    private func statement(for type: String) throws -> Statement? {
        if let cached = statements[type] { return cached }
        var counts: [String] = []
        for link in catalog.incoming[type] ?? [] where owners?.contains(link.ownerType) ?? true {
            let name = link.property.name
            if link.property.type.isCollection {
                counts.append("""
                    (SELECT count(*) FROM \(TableLayout.collectionTable(link.ownerType, name)) \
                    WHERE \(TableLayout.valueColumn) = ?1)
                    """)
            } else {
                counts.append("""
                    (SELECT count(*) FROM \(TableLayout.objectTable(link.ownerType)) WHERE \(TableLayout.column(name)) = ?1)
                    """)
            }
        }
        let statement = counts.isEmpty ? nil : try db.makeStatement(sql: "SELECT " + counts.joined(separator: " + "))
        statements[type] = statement
        return statement
    }

    private func countMixedLinks() throws {
        guard !catalog.mixedSites.isEmpty else { return }
        // Nested containers belong to no one type, so they always count.
        for place in catalog.mixedLinkColumns where place.ownerType.map({ owners?.contains($0) ?? true }) ?? true {
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(place.tag), \(place.value), count(*) FROM \(place.table) WHERE \(place.tag) >= ?
                GROUP BY \(place.tag), \(place.value)
                """, arguments: [MixedTag.linkBase])
            for row in rows {
                guard let tagValue = row[0] as Int64?, let id = row[1] as Int64?, let count = row[2] as Int?,
                    let typeName = catalog.typeNames[tagValue - MixedTag.linkBase]
                else { continue }
                mixedLinks[ObjectRef(type: typeName, id: id), default: 0] += count
            }
        }
    }
}
