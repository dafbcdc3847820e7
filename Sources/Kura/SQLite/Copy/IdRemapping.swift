import GRDB

/// How ids change from the source realm to the destination: each type's object ids move up by the
/// destination's last id of that type, mixed containers by its last container, and a link's mixed
/// tag takes the destination's id for the same type name.
struct IdRemapping {
    private let objectOffsets: [String: Int64]
    private let containerOffset: Int64
    /// Source tag to destination tag, for link tags that differ.
    private let linkTags: [(from: Int64, to: Int64)]
    /// Source link tag to the offset of its type, for types whose ids move.
    private let linkOffsets: [(tag: Int64, offset: Int64)]

    init(source: SchemaCatalog, destination: SchemaCatalog, types: [String], db: Database) throws {
        var offsets: [String: Int64] = [:]
        for type in types {
            offsets[type] = try Int64.fetchOne(
                db, sql: "SELECT \"lastObjectId\" FROM main.\(TableLayout.typesTable) WHERE \"name\" = ?", arguments: [type]) ?? 0
        }
        objectOffsets = offsets
        containerOffset = try Int64.fetchOne(
            db, sql: "SELECT \"value\" FROM main.\(TableLayout.metaTable) WHERE \"key\" = 'lastMixedContainer'") ?? 0
        var tags: [(Int64, Int64)] = []
        var tagOffsets: [(Int64, Int64)] = []
        for (name, sourceId) in source.typeIds.sorted(by: { $0.value < $1.value }) {
            guard let destinationId = destination.typeIds[name] else { continue }
            if sourceId != destinationId { tags.append((MixedTag.linkBase + sourceId, MixedTag.linkBase + destinationId)) }
            if let offset = offsets[name], offset != 0 { tagOffsets.append((MixedTag.linkBase + sourceId, offset)) }
        }
        linkTags = tags
        linkOffsets = tagOffsets
    }

    /// `column`, an id of a `type` object, as the destination numbers it.
    func shifted(_ column: String, of type: String) -> String {
        let offset = objectOffsets[type] ?? 0
        return offset == 0 ? column : "\(column) + \(offset)"
    }

    /// `column`, a mixed container id, as the destination numbers it.
    func shiftedContainer(_ column: String) -> String {
        containerOffset == 0 ? column : "\(column) + \(containerOffset)"
    }

    /// The destination's tag for the mixed value tagged by `tag`.
    func mixedTag(_ tag: String) -> String {
        guard !linkTags.isEmpty else { return tag }
        let cases = linkTags.map { "WHEN \($0.from) THEN \($0.to)" }.joined(separator: " ")
        return "CASE \(tag) \(cases) ELSE \(tag) END"
    }

    /// The destination's value for the mixed value in `value` tagged by `tag`: container ids and
    /// link ids shifted, anything else as it is.
    func mixedValue(_ value: String, tag: String) -> String {
        var cases: [String] = []
        if containerOffset != 0 {
            cases.append("WHEN \(tag) IN (\(MixedTag.list), \(MixedTag.map)) THEN \(value) + \(containerOffset)")
        }
        cases += linkOffsets.map { "WHEN \(tag) = \($0.tag) THEN \(value) + \($0.offset)" }
        return cases.isEmpty ? value : "CASE \(cases.joined(separator: " ")) ELSE \(value) END"
    }
}
