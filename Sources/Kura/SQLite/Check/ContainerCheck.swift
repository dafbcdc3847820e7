import GRDB

/// Checks the nested mixed lists and maps of `#mixed`: each is referred to by exactly one mixed
/// value (list or map tag), holds entries of its kind (list elements with a position, map entries
/// with a key, each key once), and has an id the container counter has handed out.
///
/// An empty container has no rows, so a container referred to but missing cannot be told from an
/// empty one; one past the counter can, and is reported as the counter being behind.
struct ContainerCheck {
    let db: Database
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
                """
                SELECT "s".\(site.value), "s".\(tag) FROM \(site.scan)
                WHERE "s".\(tag) IN (\(MixedTag.list), \(MixedTag.map)) AND typeof("s".\(site.value)) = 'integer'
                """
            }
        }
        let refs = "WITH \"refs\"(\"id\", \"tag\") AS MATERIALIZED (\(branches.joined(separator: " UNION ALL ")))"
        let mixed = TableLayout.mixedTable
        let container = TableLayout.mixedContainerColumn
        let position = TableLayout.positionColumn
        let key = TableLayout.keyColumn

        for row in try Row.fetchAll(db, sql: """
            \(refs) SELECT "m".\(container), count(*) FROM \(mixed) AS "m"
            WHERE "m".\(container) NOT IN (SELECT "id" FROM "refs") GROUP BY 1 ORDER BY 1
            """) {
            let entries = Counted(row.checkedCount(1), "entry", plural: "entries")
            add(.orphanContainer, "container \(row[0] as DatabaseValue) holds \(entries), but no mixed value refers to it")
        }
        for row in try Row.fetchAll(db, sql: """
            \(refs) SELECT "id", count(*) FROM "refs" GROUP BY 1 HAVING count(*) > 1 ORDER BY 1
            """) {
            add(.sharedContainer, "container \(row[0] as DatabaseValue) is referred to by \(row[1] as DatabaseValue) mixed values")
        }
        // A list's entries have a position and no key; a map's a key and no position.
        for row in try Row.fetchAll(db, sql: """
            \(refs) SELECT DISTINCT "id", "tag" FROM "refs" WHERE EXISTS (
                SELECT 1 FROM \(mixed) AS "m" WHERE "m".\(container) = "refs"."id" AND NOT (CASE "refs"."tag"
                    WHEN \(MixedTag.list) THEN "m".\(position) IS NOT NULL AND "m".\(key) IS NULL
                    ELSE "m".\(key) IS NOT NULL AND "m".\(position) IS NULL END))
            ORDER BY 1
            """) {
            let isList = row.checkedInteger(1) == MixedTag.list
            let kind = isList ? "a list, but holds entries that are not list elements" : "a map, but holds entries that are not map entries"
            add(.containerShape, "container \(row[0] as DatabaseValue) is \(kind)")
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT \(container), \(key), count(*) FROM \(mixed) WHERE \(key) IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1 ORDER BY 1, 2
            """) {
            add(.containerShape, "container \(row[0] as DatabaseValue) holds the key \(row[1] as DatabaseValue) \(row[2] as DatabaseValue) times")
        }
        let highest = try Row.fetchOne(db, sql: """
            \(refs) SELECT max("id") FROM (SELECT "id" FROM "refs" UNION ALL SELECT \(container) FROM \(mixed))
            """)?.checkedInteger(0)
        if let highest, let last = layout.lastMixedContainer, last < highest {
            findings.add(
                .counterBehind, .init(table: "#meta"), "#meta",
                CheckWording.containerCounterBehind(last, highest))
        }
    }

    private func add(_ kind: CheckFinding.Kind, _ detail: String) {
        findings.add(kind, Self.place, Self.label, detail)
    }
}
