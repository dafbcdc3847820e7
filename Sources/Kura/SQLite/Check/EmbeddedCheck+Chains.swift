import GRDB

/// The chain walk: embedded objects that each have one parent can still hang in a cycle of their
/// own, or below an orphan, where no top-level object owns them. Only links from an embedded type
/// to an embedded type can form such chains, so only those are read (none, for most schemas).
extension EmbeddedCheck {
    func checkChains(_ reported: EmbeddedOwnership.Reported) throws {
        let parents = try embeddedParents()
        guard !parents.isEmpty else { return }
        EmbeddedOwnership(findings: findings).chains(parents, reported)
    }

    /// The embedded parent of every existing embedded object that has one.
    private func embeddedParents() throws -> [EmbeddedObject: EmbeddedObject] {
        let embedded = Set(layout.types.filter(\.isEmbedded).map(\.name))
        var parents: [EmbeddedObject: EmbeddedObject] = [:]
        for site in layout.sites {
            guard let owner = site.ownerType, embedded.contains(owner),
                  let target = site.type.objectTypeName, embedded.contains(target)
            else { continue }
            let table = TableLayout.objectTable(target)
            let id = TableLayout.idColumn
            let rows = try Row.fetchCursor(db, sql: """
                SELECT "s".\(site.value), "s".\(site.owner) FROM \(site.scan)
                WHERE "s".\(site.value) IS NOT NULL AND EXISTS (SELECT 1 FROM \(table) AS "e" WHERE "e".\(id) = "s".\(site.value))
                """)
            while let row = try rows.next() {
                guard let child = row.checkedInteger(0), let parent = row.checkedInteger(1) else { continue }
                parents[EmbeddedObject(type: target, id: child)] = EmbeddedObject(type: owner, id: parent)
            }
        }
        return parents
    }
}
