/// Checks the nested mixed lists and maps of a PostgreSQL realm's `#mixed`: each is referred to by
/// exactly one mixed value (list or map tag), holds entries of its kind (list elements with a
/// position, map entries with a key, each key once), and has an id the container counter has
/// handed out. A container id is a mixed value's bytes as decimal text (`PostgresLayout`).
struct PostgresContainerCheck {
    let queries: PostgresCheckQueries
    let findings: FindingCollector
    let layout: CheckedLayout

    private static let place = CheckFinding.Place(table: "#mixed")
    private static let label = "#mixed"

    func run() {
        guard layout.hasMixedTable else { return }
        findings.attempt(Self.place, Self.label) { try check() }
    }

    private func check() throws {
        let branches = layout.sites.compactMap { site in
            site.tag.map { tag in
                let id = ValueColumn.mixedInteger("\"s\".\(site.value)")
                return """
                    SELECT \(id), "s".\(tag) FROM \(site.source)
                    WHERE "s".\(tag) IN (\(MixedTag.list), \(MixedTag.map)) AND \(id) IS NOT NULL
                    """
            }
        }
        let refs = "WITH \"refs\"(\"id\", \"tag\") AS MATERIALIZED (\(branches.joined(separator: " UNION ALL ")))"
        let mixed = TableLayout.mixedTable
        let container = TableLayout.mixedContainerColumn
        let position = TableLayout.positionColumn
        let key = TableLayout.keyColumn

        for row in try queries.rows("""
            \(refs) SELECT "m".\(container), count(*) FROM \(mixed) AS "m"
            WHERE NOT EXISTS (SELECT 1 FROM "refs" WHERE "refs"."id" = "m".\(container)) GROUP BY 1 ORDER BY 1
            """) where row.count == 2 {
            let entries = Counted(Int(truncatingIfNeeded: row[1].objectId ?? 0), "entry", plural: "entries")
            add(.orphanContainer, "container \(row[0].sqlDescription) holds \(entries), but no mixed value refers to it")
        }
        for row in try queries.rows("""
            \(refs) SELECT "id", count(*) FROM "refs" GROUP BY 1 HAVING count(*) > 1 ORDER BY 1
            """) where row.count == 2 {
            add(.sharedContainer, "container \(row[0].sqlDescription) is referred to by \(row[1].sqlDescription) mixed values")
        }
        // A list's entries have a position and no key; a map's a key and no position.
        for row in try queries.rows("""
            \(refs) SELECT DISTINCT "id", "tag" FROM "refs" WHERE EXISTS (
                SELECT 1 FROM \(mixed) AS "m" WHERE "m".\(container) = "refs"."id" AND NOT (CASE "refs"."tag"
                    WHEN \(MixedTag.list) THEN "m".\(position) IS NOT NULL AND "m".\(key) IS NULL
                    ELSE "m".\(key) IS NOT NULL AND "m".\(position) IS NULL END))
            ORDER BY 1
            """) where row.count == 2 {
            let isList = row[1].objectId == MixedTag.list
            let kind = isList ? "a list, but holds entries that are not list elements" : "a map, but holds entries that are not map entries"
            add(.containerShape, "container \(row[0].sqlDescription) is \(kind)")
        }
        for row in try queries.rows("""
            SELECT \(container), \(key), count(*) FROM \(mixed) WHERE \(key) IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1 ORDER BY 1, 2
            """) where row.count == 3 {
            let shownKey: String = if case .blob(let bytes) = row[1] { String(reflecting: ValueColumn.keyText(bytes)) } else { row[1].sqlDescription }
            add(.containerShape, "container \(row[0].sqlDescription) holds the key \(shownKey) \(row[2].sqlDescription) times")
        }
        let highest = try queries.value("""
            \(refs) SELECT max("id") FROM (SELECT "id" FROM "refs" UNION ALL SELECT \(container) FROM \(mixed)) AS "ids"
            """)?.objectId
        if let highest, let last = layout.lastMixedContainer, last < highest {
            findings.add(.counterBehind, .init(table: "#meta"), "#meta", CheckWording.containerCounterBehind(last, highest))
        }
    }

    private func add(_ kind: CheckFinding.Kind, _ detail: String) {
        findings.add(kind, Self.place, Self.label, detail)
    }
}
