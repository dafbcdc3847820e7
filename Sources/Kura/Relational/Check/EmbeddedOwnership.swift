/// An embedded object, by type name and internal id.
struct EmbeddedObject: Hashable {
    let type: String
    let id: Int64
}

extension EmbeddedObject: CustomStringConvertible {
    var description: String { "\(type) \(id)" }
}

/// What every engine's embedded-object check reports, from the links its queries find: objects no
/// object owns, objects owned more than once, and chains of embedded objects that no top-level
/// object owns (a cycle of their own, or hanging below an orphan).
struct EmbeddedOwnership {
    let findings: FindingCollector

    /// How many parents of a shared object a finding names.
    static let listedParents = 5

    /// The embedded objects already reported as orphan or shared, which the chain walk stops at.
    struct Reported {
        var orphans: Set<EmbeddedObject> = []
        var shared: Set<EmbeddedObject> = []
    }

    /// Reports embedded object `id` of `type`, which nothing links to.
    func orphan(_ id: Int64, of type: String, at place: CheckFinding.Place, into reported: inout Reported) {
        var at = place
        at.objectId = id
        reported.orphans.insert(EmbeddedObject(type: type, id: id))
        findings.add(.orphanEmbedded, at, type, "object \(id) is embedded, but no object owns it")
    }

    /// Reports the objects of `type` that several parents link to: `links` holds every link to such
    /// an object, ordered by the object, as the object's id and its parent (`Node.spot of object 1`).
    func shared(_ links: [(child: Int64, parent: String)], of type: String, at place: CheckFinding.Place, into reported: inout Reported) {
        var groups: [(id: Int64, parents: [String])] = []
        for (child, parent) in links {
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

    /// Where an upward walk from an embedded object ended.
    private enum ChainEnd: Equatable {
        /// At an object with a top-level parent, or one already reported as shared.
        case owned
        /// Back at an object on the walk.
        case cycle
        /// At an orphan, already reported.
        case orphan(EmbeddedObject)
    }

    /// Reports the embedded objects whose chain of embedded parents (`parents`: the embedded parent
    /// of every embedded object that has one) ends in a cycle or at an orphan.
    func chains(_ parents: [EmbeddedObject: EmbeddedObject], _ reported: Reported) {
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
}
