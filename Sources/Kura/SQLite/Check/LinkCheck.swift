import GRDB

/// Checks what links and collections rest on: every typed link names an object that exists,
/// every mixed link a type the realm has and an object of it, every collection row an owner that
/// exists, and every list (typed or nested in a mixed value) positions 0 to its count minus one.
struct LinkCheck {
    let db: Database
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
        let rows = try Row.fetchCursor(db, sql: """
            SELECT \(site.whereColumns), \(value) FROM \(site.scan)
            WHERE \(value) IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM \(TableLayout.objectTable(target)) AS "t" WHERE "t".\(TableLayout.idColumn) = \(value))
            """)
        while let row = try rows.next() {
            let (place, subject) = site.subject(row)
            let id: DatabaseValue = row[3]
            findings.add(.danglingLink, place, site.label, "\(subject) links to \(target) \(id), which does not exist")
        }
    }

    /// Links in mixed values (tags from `MixedTag.linkBase` on): one query that passes the links to
    /// objects that exist, and sorts out the others by their tag.
    private func mixedLinks(_ site: ValueColumn, typeNames: [Int64: String]) throws {
        guard let tagColumn = site.tag else { return }
        let tag = "\"s\".\(tagColumn)"
        let value = "\"s\".\(site.value)"
        var valid: [String] = []
        for type in layout.types where !type.isEmbedded {
            guard let id = layout.typeIds[type.name] else { continue }
            valid.append("""
                (\(tag) = \(MixedTag.linkBase + id) AND EXISTS (
                    SELECT 1 FROM \(TableLayout.objectTable(type.name)) AS "t" WHERE "t".\(TableLayout.idColumn) = \(value)))
                """)
        }
        // A type whose table is missing is reported as such; its links cannot be checked.
        for type in layout.schema.types where !layout.hasTable(type.name) {
            if let id = layout.typeIds[type.name] { valid.append("\(tag) = \(MixedTag.linkBase + id)") }
        }
        let rows = try Row.fetchCursor(db, sql: """
            SELECT \(site.whereColumns), \(tag), \(value) FROM \(site.scan)
            WHERE \(tag) >= \(MixedTag.linkBase) AND typeof(\(value)) = 'integer' AND NOT (0 \(valid.map { "OR " + $0 }.joined(separator: " ")))
            """)
        while let row = try rows.next() {
            let (place, subject) = site.subject(row)
            let tagValue = row.checkedInteger(3) ?? 0
            let id = row.checkedInteger(4) ?? 0
            guard let name = typeNames[tagValue - MixedTag.linkBase] else {
                findings.add(
                    .invalidLinkType, place, site.label,
                    "\(subject) links to object \(id) of type id \(tagValue - MixedTag.linkBase), which the realm does not have")
                continue
            }
            switch layout.schema[type: name]?.isEmbedded {
            case nil:
                findings.add(.invalidLinkType, place, site.label, "\(subject) links to \(name) \(id), a type the schema does not have")
            case true?:
                findings.add(.invalidLinkType, place, site.label, "\(subject) links to embedded \(name) \(id), which a mixed value cannot hold")
            case false?:
                findings.add(.danglingLink, place, site.label, "\(subject) links to \(name) \(id), which does not exist")
            }
        }
    }

    private func orphanElements(_ site: ValueColumn, owner: String) throws {
        let rows = try Row.fetchCursor(db, sql: """
            SELECT "s".\(site.owner), count(*) FROM \(site.scan)
            WHERE NOT EXISTS (SELECT 1 FROM \(TableLayout.objectTable(owner)) AS "o" WHERE "o".\(TableLayout.idColumn) = "s".\(site.owner))
            GROUP BY "s".\(site.owner)
            """)
        while let row = try rows.next() {
            let (place, subject) = site.owned(by: row[0])
            let elements = Counted(row.checkedCount(1), "element")
            let verb = elements.count == 1 ? "belongs" : "belong"
            findings.add(.orphanElement, place, site.label, "\(elements) \(verb) to \(subject), which does not exist")
        }
    }

    /// Lists whose positions are not exactly 0 to count - 1: a gap, a repeat, or a start elsewhere.
    private func positions(_ site: ValueColumn) throws {
        guard let position = site.position.map({ "\"s\".\($0)" }) else { return }
        let owner = "\"s\".\(site.owner)"
        let rows = try Row.fetchCursor(db, sql: """
            SELECT \(owner), count(*), count(DISTINCT \(position)), min(\(position)), max(\(position))
            FROM \(site.scan) WHERE \(position) IS NOT NULL GROUP BY \(owner)
            HAVING min(\(position)) <> 0 OR max(\(position)) <> count(*) - 1 OR count(DISTINCT \(position)) <> count(*)
            """)
        while let row = try rows.next() {
            let (place, subject) = site.owned(by: row[0])
            let count = row.checkedCount(1)
            let distinct = row.checkedCount(2)
            let low: DatabaseValue = row[3]
            let high: DatabaseValue = row[4]
            let at = distinct == count ? "at positions \(low) to \(high)" : "at \(Counted(distinct, "distinct position")) from \(low) to \(high)"
            findings.add(.listPositions, place, site.label, "\(subject) has \(Counted(count, "element")) \(at), not 0 to \(count - 1)")
        }
    }
}
