/// Checks what links and collections of a PostgreSQL realm rest on: every typed link names an
/// object that exists, every mixed link a type the realm has and an object of it, every collection
/// row an owner that exists, and every list (typed or nested in a mixed value) positions 0 to its
/// count minus one.
struct PostgresLinkCheck {
    let queries: PostgresCheckQueries
    let findings: FindingCollector
    let layout: CheckedLayout

    func run() {
        let typeNames = layout.typeNames
        for site in layout.sites {
            findings.attempt(site.place, site.label) {
                if let target = site.type.objectTypeName, layout.hasTable(target) { try typedLinks(site, to: target) }
                if site.tag != nil { try mixedLinks(site, typeNames: typeNames) }
                if site.property?.type.isCollection == true, let owner = site.ownerType, layout.hasTable(owner) {
                    try orphanElements(site, owner: owner)
                }
                if site.position != nil { try positions(site) }
            }
        }
    }

    private func typedLinks(_ site: ValueColumn, to target: String) throws {
        let value = "\"s\".\(site.value)"
        let rows = try queries.rows("""
            SELECT \(site.whereColumns), \(value) FROM \(site.source)
            WHERE \(value) IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM \(TableLayout.objectTable(target)) AS "t" WHERE "t".\(TableLayout.idColumn) = \(value))
            ORDER BY 1, 2, 3
            """)
        for row in rows where row.count == 4 {
            let (place, subject) = site.subject(cells: row)
            findings.add(.danglingLink, place, site.label, "\(subject) links to \(target) \(row[3].sqlDescription), which does not exist")
        }
    }

    /// Links in mixed values (tags from `MixedTag.linkBase` on, the object id as decimal text): one
    /// query that passes the links to objects that exist, and sorts out the others by their tag.
    /// A link whose bytes are no id is the value check's finding.
    private func mixedLinks(_ site: ValueColumn, typeNames: [Int64: String]) throws {
        guard let tagColumn = site.tag else { return }
        let tag = "\"s\".\(tagColumn)"
        let id = ValueColumn.mixedInteger("\"s\".\(site.value)")
        var valid: [String] = []
        for type in layout.types where !type.isEmbedded {
            guard let typeId = layout.typeIds[type.name] else { continue }
            valid.append("""
                (\(tag) = \(MixedTag.linkBase + typeId) AND EXISTS (
                    SELECT 1 FROM \(TableLayout.objectTable(type.name)) AS "t" WHERE "t".\(TableLayout.idColumn) = \(id)))
                """)
        }
        // A type whose table is missing is reported as such; its links cannot be checked.
        for type in layout.schema.types where !layout.hasTable(type.name) {
            if let typeId = layout.typeIds[type.name] { valid.append("\(tag) = \(MixedTag.linkBase + typeId)") }
        }
        let rows = try queries.rows("""
            SELECT \(site.whereColumns), \(tag), \(id) FROM \(site.source)
            WHERE \(tag) >= \(MixedTag.linkBase) AND \(id) IS NOT NULL AND NOT (false \(valid.map { "OR " + $0 }.joined(separator: " ")))
            ORDER BY 1, 2, 3
            """)
        for row in rows where row.count == 5 {
            let (place, subject) = site.subject(cells: row)
            let tagValue = row[3].objectId ?? 0
            let target = row[4].objectId ?? 0
            guard let name = typeNames[tagValue - MixedTag.linkBase] else {
                findings.add(
                    .invalidLinkType, place, site.label,
                    "\(subject) links to object \(target) of type id \(tagValue - MixedTag.linkBase), which the realm does not have")
                continue
            }
            switch layout.schema[type: name]?.isEmbedded {
            case nil:
                findings.add(.invalidLinkType, place, site.label, "\(subject) links to \(name) \(target), a type the schema does not have")
            case true?:
                findings.add(.invalidLinkType, place, site.label, "\(subject) links to embedded \(name) \(target), which a mixed value cannot hold")
            case false?:
                findings.add(.danglingLink, place, site.label, "\(subject) links to \(name) \(target), which does not exist")
            }
        }
    }

    private func orphanElements(_ site: ValueColumn, owner: String) throws {
        let rows = try queries.rows("""
            SELECT "s".\(site.owner), count(*) FROM \(site.source)
            WHERE NOT EXISTS (SELECT 1 FROM \(TableLayout.objectTable(owner)) AS "o" WHERE "o".\(TableLayout.idColumn) = "s".\(site.owner))
            GROUP BY "s".\(site.owner) ORDER BY 1
            """)
        for row in rows where row.count == 2 {
            let (place, subject) = site.owned(by: row[0])
            let elements = Counted(Int(truncatingIfNeeded: row[1].objectId ?? 0), "element")
            let verb = elements.count == 1 ? "belongs" : "belong"
            findings.add(.orphanElement, place, site.label, "\(elements) \(verb) to \(subject), which does not exist")
        }
    }

    /// Lists whose positions are not exactly 0 to count - 1: a gap, a repeat, or a start elsewhere.
    private func positions(_ site: ValueColumn) throws {
        guard let position = site.position.map({ "\"s\".\($0)" }) else { return }
        let owner = "\"s\".\(site.owner)"
        let rows = try queries.rows("""
            SELECT \(owner), count(*), count(DISTINCT \(position)), min(\(position)), max(\(position))
            FROM \(site.source) WHERE \(position) IS NOT NULL GROUP BY \(owner)
            HAVING min(\(position)) <> 0 OR max(\(position)) <> count(*) - 1 OR count(DISTINCT \(position)) <> count(*)
            ORDER BY 1
            """)
        for row in rows where row.count == 5 {
            let (place, subject) = site.owned(by: row[0])
            let count = row[1].objectId ?? 0
            let distinct = row[2].objectId ?? 0
            let low = row[3].sqlDescription
            let high = row[4].sqlDescription
            let at = distinct == count ? "at positions \(low) to \(high)" : "at \(Counted(Int(distinct), "distinct position")) from \(low) to \(high)"
            findings.add(.listPositions, place, site.label, "\(subject) has \(Counted(Int(count), "element")) \(at), not 0 to \(count - 1)")
        }
    }
}
