/// The words of the findings every engine's checks share, so that a broken invariant reads the
/// same whichever engine holds the realm.
enum CheckWording {
    /// What a row holds where its column requires a value.
    static let missingValue = "holds null where a value is required"

    /// A value that is not one of its column's type: `holds integer 7, which is not a valid bool`.
    static func notValid(_ shown: String, _ type: PropertyType) -> String {
        "holds \(shown), which is not a valid \(type.nonOptional)"
    }

    /// A mixed value that does not fit its tag: `holds text "x" tagged int`, or a tag no kind has.
    static func mixedMismatch(_ shown: String, tag: Int64) -> String {
        tagName(tag).map { "holds \(shown) tagged \($0)" } ?? "holds \(shown) under tag \(tag), which no kind of value has"
    }

    /// The kind of value a tag stands for; `nil` for tags no kind has.
    static func tagName(_ tag: Int64) -> String? {
        switch tag {
        case MixedTag.null: "null"
        case MixedTag.list: "list"
        case MixedTag.map: "map"
        case MixedTag.linkBase...: "link"
        default: MixedTag.scalarTypes[tag]?.description
        }
    }

    /// What a finding says of a counter at Int64.max, as the writer's error says it.
    static func exhausted(_ counter: String, _ what: String) -> String {
        "the \(counter) has reached Int64.max: no more \(what) can be created"
    }

    /// The object id counter of a type, below the highest id in use.
    static func objectCounterBehind(_ last: Int64, _ highest: Int64) -> String {
        "the object id counter (#types.lastObjectId) is \(last), below the highest object id \(highest)"
    }

    /// The autoIncrement counter of a type, below the highest key in use.
    static func keyCounterBehind(_ last: Int64, _ highest: Int64) -> String {
        "the autoIncrement counter (#types.lastKey) is \(last), below the highest key \(highest)"
    }

    /// The counter of nested mixed containers, below the highest container id in use.
    static func containerCounterBehind(_ last: Int64, _ highest: Int64) -> String {
        "the container counter (lastMixedContainer) is \(last), below the highest container id \(highest)"
    }

    /// Where a finding on the index named `name` goes: the property or collection it serves
    /// (`Owner.id`, `Node.peers`) or the internal table (`#mixed`).
    static func indexSite(_ name: String) -> (label: String, place: CheckFinding.Place) {
        let label = name.lastIndex(of: "#").map { String(name[..<$0]) } ?? name
        let parts = label.split(separator: ".", maxSplits: 1).map(String.init)
        let place = label.hasPrefix("#")
            ? CheckFinding.Place(table: label)
            : CheckFinding.Place(type: parts.first, property: parts.count > 1 ? parts[1] : nil, table: label)
        return (label, place)
    }

    /// The unquoted name in `CREATE [UNIQUE] INDEX "name" ON …`, as Kura writes it.
    static func indexName(in statement: String) -> String? {
        guard let open = statement.firstIndex(of: "\""), let on = statement.range(of: "\" ON ", range: open..<statement.endIndex)
        else { return nil }
        return String(statement[statement.index(after: open)..<on.lowerBound]).replacingOccurrences(of: "\"\"", with: "\"")
    }
}
