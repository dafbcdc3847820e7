/// Checks that each embedded object of a PostgreSQL realm has exactly one parent, and that every
/// chain of embedded parents reaches a top-level object (`EmbeddedOwnership` words the findings).
struct PostgresEmbeddedCheck {
    let queries: PostgresCheckQueries
    let findings: FindingCollector
    let layout: CheckedLayout

    func run() {
        var reported = EmbeddedOwnership.Reported()
        for type in layout.types where type.isEmbedded {
            let place = CheckFinding.Place(type: type.name, table: type.name)
            findings.attempt(place, type.name) { try check(type.name, place, into: &reported) }
        }
        findings.attempt(.init(), "embedded objects") {
            let parents = try embeddedParents()
            if !parents.isEmpty { EmbeddedOwnership(findings: findings).chains(parents, reported) }
        }
    }

    private func check(_ type: String, _ place: CheckFinding.Place, into reported: inout EmbeddedOwnership.Reported) throws {
        let parents = layout.sites.filter { $0.ownerType != nil && $0.type.objectTypeName == type }
        // Every link to the type: the embedded id, the parent site (an index into `parents`) and the parent.
        var branches = parents.enumerated().map { index, site in
            "SELECT \"s\".\(site.value), \(index), \"s\".\(site.owner) FROM \(site.source) WHERE \"s\".\(site.value) IS NOT NULL"
        }
        if branches.isEmpty { branches = ["SELECT NULL::bigint, NULL::integer, NULL::bigint WHERE false"] }
        let links = "WITH \"links\"(\"id\", \"site\", \"parent\") AS MATERIALIZED (\(branches.joined(separator: " UNION ALL ")))"
        let table = TableLayout.objectTable(type)
        let id = TableLayout.idColumn
        let ownership = EmbeddedOwnership(findings: findings)
        let orphans = try queries.rows("""
            \(links) SELECT "e".\(id) FROM \(table) AS "e" WHERE NOT EXISTS (SELECT 1 FROM "links" WHERE "links"."id" = "e".\(id)) ORDER BY 1
            """)
        for row in orphans {
            guard let orphan = row.first?.objectId else { continue }
            ownership.orphan(orphan, of: type, at: place, into: &reported)
        }
        let shared = try queries.rows("""
            \(links) SELECT "id", "site", "parent" FROM "links"
            WHERE "id" IN (SELECT "id" FROM "links" GROUP BY "id" HAVING count(*) > 1)
                AND EXISTS (SELECT 1 FROM \(table) AS "e" WHERE "e".\(id) = "links"."id")
            ORDER BY "id", "site", "parent"
            """)
        var owners: [(child: Int64, parent: String)] = []
        for row in shared where row.count == 3 {
            guard let child = row[0].objectId, let index = row[1].objectId.map(Int.init), parents.indices.contains(index) else { continue }
            owners.append((child, "\(parents[index].label) of object \(row[2].objectId.map(String.init) ?? "null")"))
        }
        ownership.shared(owners, of: type, at: place, into: &reported)
    }

    /// The embedded parent of every existing embedded object that has one: only links from an
    /// embedded type to an embedded type can form chains that no top-level object owns.
    private func embeddedParents() throws -> [EmbeddedObject: EmbeddedObject] {
        let embedded = Set(layout.types.filter(\.isEmbedded).map(\.name))
        var parents: [EmbeddedObject: EmbeddedObject] = [:]
        for site in layout.sites {
            guard let owner = site.ownerType, embedded.contains(owner),
                  let target = site.type.objectTypeName, embedded.contains(target)
            else { continue }
            let table = TableLayout.objectTable(target)
            let id = TableLayout.idColumn
            try queries.scan("""
                SELECT "s".\(site.value), "s".\(site.owner) FROM \(site.source)
                WHERE "s".\(site.value) IS NOT NULL AND EXISTS (SELECT 1 FROM \(table) AS "e" WHERE "e".\(id) = "s".\(site.value))
                """) { row in
                guard row.count == 2, let child = row[0].objectId, let parent = row[1].objectId else { return }
                parents[EmbeddedObject(type: target, id: child)] = EmbeddedObject(type: owner, id: parent)
            }
        }
        return parents
    }
}
