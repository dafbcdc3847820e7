import GRDB

/// Checks that each embedded object has exactly one parent: a property or collection element of
/// an object that links to it. One with none is an orphan; one with more is shared. Then, where
/// embedded types hold each other, that every chain of parents reaches a top-level object
/// (`EmbeddedCheck+Chains`).
struct EmbeddedCheck {
    let db: Database
    let findings: FindingCollector
    let layout: CheckedLayout

    func run() {
        var reported = EmbeddedOwnership.Reported()
        for type in layout.types where type.isEmbedded {
            let place = CheckFinding.Place(type: type.name, table: type.name)
            findings.attempt(place, type.name) { try check(type.name, place, into: &reported) }
        }
        findings.attempt(.init(), "embedded objects") { try checkChains(reported) }
    }

    private func check(_ type: String, _ place: CheckFinding.Place, into reported: inout EmbeddedOwnership.Reported) throws {
        let parents = layout.sites.filter { $0.ownerType != nil && $0.type.objectTypeName == type }
        // Every link to the type: the embedded id, the parent site (an index into `parents`) and the parent.
        var branches = parents.enumerated().map { index, site in
            "SELECT \"s\".\(site.value), \(index), \"s\".\(site.owner) FROM \(site.scan) WHERE \"s\".\(site.value) IS NOT NULL"
        }
        if branches.isEmpty { branches = ["SELECT NULL, NULL, NULL WHERE 0"] }
        let links = "WITH \"links\"(\"id\", \"site\", \"parent\") AS MATERIALIZED (\(branches.joined(separator: " UNION ALL ")))"
        let table = TableLayout.objectTable(type)
        let id = TableLayout.idColumn
        let orphans = try Row.fetchCursor(db, sql: """
            \(links) SELECT "e".\(id) FROM \(table) AS "e" WHERE "e".\(id) NOT IN (SELECT "id" FROM "links") ORDER BY 1
            """)
        let ownership = EmbeddedOwnership(findings: findings)
        while let row = try orphans.next() {
            guard let orphan = row.checkedInteger(0) else { continue }
            ownership.orphan(orphan, of: type, at: place, into: &reported)
        }
        let shared = try Row.fetchAll(db, sql: """
            \(links) SELECT "id", "site", "parent" FROM "links"
            WHERE "id" IN (SELECT "id" FROM "links" GROUP BY "id" HAVING count(*) > 1)
                AND EXISTS (SELECT 1 FROM \(table) AS "e" WHERE "e".\(id) = "links"."id")
            ORDER BY "id", "site", "parent"
            """)
        var owners: [(child: Int64, parent: String)] = []
        for row in shared {
            guard let child = row.checkedInteger(0), let index = row.checkedInteger(1).map(Int.init), parents.indices.contains(index)
            else { continue }
            owners.append((child, "\(parents[index].label) of object \(row.checkedInteger(2).map(String.init) ?? "null")"))
        }
        ownership.shared(owners, of: type, at: place, into: &reported)
    }
}
