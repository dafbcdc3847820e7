import GRDB

/// Checks that each embedded object has exactly one parent: a property or collection element of
/// an object that links to it. One with none is an orphan; one with more is shared. Then, where
/// embedded types hold each other, that every chain of parents reaches a top-level object
/// (`EmbeddedCheck+Chains`).
struct EmbeddedCheck {
    let db: Database
    let findings: FindingCollector
    let layout: CheckedLayout

    /// How many parents of a shared object a finding names.
    static let listedParents = 5

    /// The embedded objects already reported as orphan or shared, which the chain walk stops at.
    struct Reported {
        var orphans: Set<EmbeddedObject> = []
        var shared: Set<EmbeddedObject> = []
    }

    func run() {
        var reported = Reported()
        for type in layout.types where type.isEmbedded {
            let place = CheckFinding.Place(type: type.name, table: type.name)
            findings.attempt(place, type.name) { try check(type.name, place, into: &reported) }
        }
        findings.attempt(.init(), "embedded objects") { try checkChains(reported) }
    }

    private func check(_ type: String, _ place: CheckFinding.Place, into reported: inout Reported) throws {
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
        while let row = try orphans.next() {
            guard let orphan = row.checkedInteger(0) else { continue }
            var at = place
            at.objectId = orphan
            reported.orphans.insert(EmbeddedObject(type: type, id: orphan))
            findings.add(.orphanEmbedded, at, type, "object \(orphan) is embedded, but no object owns it")
        }
        let shared = try Row.fetchAll(db, sql: """
            \(links) SELECT "id", "site", "parent" FROM "links"
            WHERE "id" IN (SELECT "id" FROM "links" GROUP BY "id" HAVING count(*) > 1)
                AND EXISTS (SELECT 1 FROM \(table) AS "e" WHERE "e".\(id) = "links"."id")
            ORDER BY "id", "site", "parent"
            """)
        var groups: [(id: Int64, parents: [String])] = []
        for row in shared {
            guard let child = row.checkedInteger(0), let index = row.checkedInteger(1).map(Int.init), parents.indices.contains(index)
            else { continue }
            let parent = "\(parents[index].label) of object \(row.checkedInteger(2).map(String.init) ?? "null")"
            if groups.last?.id == child { groups[groups.count - 1].parents.append(parent) } else { groups.append((child, [parent])) }
        }
        for (child, owners) in groups {
            reported.shared.insert(EmbeddedObject(type: type, id: child))
            var at = place
            at.objectId = child
            var listed = owners.prefix(Self.listedParents).joined(separator: ", ")
            if owners.count > Self.listedParents { listed += " and \(owners.count - Self.listedParents) more" }
            findings.add(.sharedEmbedded, at, type, "object \(child) is owned by \(Counted(owners.count, "parent")): \(listed)")
        }
    }
}
