import GRDB

/// An embedded object, by type name and internal id.
struct EmbeddedObject: Hashable {
    let type: String
    let id: Int64
}

extension EmbeddedObject: CustomStringConvertible {
    var description: String { "\(type) \(id)" }
}

/// The chain walk: embedded objects that each have one parent can still hang in a cycle of their
/// own, or below an orphan, where no top-level object owns them. Only links from an embedded type
/// to an embedded type can form such chains, so only those are read (none, for most schemas).
extension EmbeddedCheck {
    /// Where an upward walk from an embedded object ended.
    private enum ChainEnd: Equatable {
        /// At an object with a top-level parent, or one already reported as shared.
        case owned
        /// Back at an object on the walk.
        case cycle
        /// At an orphan, already reported.
        case orphan(EmbeddedObject)
    }

    func checkChains(_ reported: Reported) throws {
        let parents = try embeddedParents()
        guard !parents.isEmpty else { return }
        var ends: [EmbeddedObject: ChainEnd] = [:]
        for child in parents.keys.sorted(by: { ($0.type, $0.id) < ($1.type, $1.id) }) {
            let end = walk(from: child, parents, reported, &ends)
            var place = CheckFinding.Place(type: child.type, table: child.type)
            place.objectId = child.id
            switch end {
            case .owned:
                break
            case .cycle:
                findings.add(.orphanEmbedded, place, child.type,
                    "object \(child.id) is embedded in a cycle of embedded objects that no top-level object owns")
            case .orphan(let orphan):
                findings.add(.orphanEmbedded, place, child.type,
                    "object \(child.id) is embedded below \(orphan), which no object owns")
            }
        }
    }

    /// Follows parents up from `start` until the chain's end is known, and records it for every
    /// object passed (a loop, not recursion: chains may be as long as the data).
    private func walk(
        from start: EmbeddedObject, _ parents: [EmbeddedObject: EmbeddedObject], _ reported: Reported,
        _ ends: inout [EmbeddedObject: ChainEnd]
    ) -> ChainEnd {
        var path: [EmbeddedObject] = []
        var onPath: Set<EmbeddedObject> = []
        var current = start
        var end: ChainEnd
        while true {
            if let known = ends[current] { end = known; break }
            if onPath.contains(current) { end = .cycle; break }
            if reported.shared.contains(current) { end = .owned; break }
            guard let parent = parents[current] else {
                end = reported.orphans.contains(current) ? .orphan(current) : .owned
                break
            }
            path.append(current)
            onPath.insert(current)
            current = parent
        }
        for object in path { ends[object] = end }
        return end
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
