/// The elements of a wide list, set or map that the mapper checked without keeping what they map
/// to: the writer maps each again from its node as it writes it. A wide collection is then held
/// once, as the document's own nodes, rather than also as a second tree of mapped values while
/// the document is mapped and written.
///
/// Only collections whose elements map on their own qualify (see `MappingContext.checkedElements`):
/// no alias among them (it would need the document's anchors as they were), scalars only for a
/// mixed value's list or map, and for a map, keys stored as given and each given once. Mapping
/// them again gives what it gave the first time: the same nodes, type and options.
struct CheckedElements: Sendable {
    /// The nodes: a list's or set's items, or a map's members.
    enum Nodes: Sendable {
        case items([DocumentNode])
        case members([DocumentMember])
    }

    /// Collections with fewer elements are mapped as they are met: holding them twice costs little,
    /// and mapping them twice would cost the import of many small documents its time.
    static let minimumCount = 1024

    let nodes: Nodes
    /// The elements' type: `.mixed` for a mixed value's list or map.
    let elementType: PropertyType
    /// The mapper that checked them, with its options.
    let mapper: DocumentMapper

    /// Whether the elements are a map's.
    var isMap: Bool {
        if case .members = nodes { return true }
        return false
    }

    /// The elements one at a time, mapped again, in the order the writer stores them.
    struct Iterator {
        let elements: CheckedElements
        let context: MappingContext
        /// A map's member indices in key order; nil for a list or set.
        let order: [Int]?
        var next = 0

        /// The next element's key (a map's) and value; nil after the last.
        mutating func nextElement() throws -> (key: String?, value: MappedValue)? {
            switch elements.nodes {
            case .items(let items):
                guard next < items.count else { return nil }
                next += 1
                return (nil, try elements.mapped(items[next - 1], in: context))
            case .members(let members):
                guard let order, next < order.count else { return nil }
                let member = members[order[next]]
                next += 1
                return (member.key, try elements.mapped(member.value, in: context))
            }
        }
    }

    /// An iterator over the elements (a map's in key order, as the writer stores them).
    func makeIterator() -> Iterator {
        var order: [Int]?
        if case .members(let members) = nodes {
            order = members.count < 2 ? [Int](members.indices) : members.indices.sorted { members[$0].key < members[$1].key }
        }
        return Iterator(elements: self, context: MappingContext(mapper: mapper), order: order)
    }

    /// Calls `body` with each element's key (a map's, in key order, as the writer stores them) and
    /// value, mapped again.
    func forEach(_ body: (_ key: String?, _ value: MappedValue) throws -> Void) throws {
        var iterator = makeIterator()
        while let (key, value) = try iterator.nextElement() { try body(key, value) }
    }

    fileprivate func mapped(_ node: DocumentNode, in context: MappingContext) throws -> MappedValue {
        guard let value = context.mapValue(node, elementType, path: "$", depth: 0), context.found.isEmpty else {
            // Checked before: only a change to the mapper's rules between the two passes could get here.
            throw context.errors()
        }
        return value
    }

    /// The elements as the public API shows them: a list, or a map by key.
    var value: Value {
        var items: [Value] = []
        var entries: [String: Value] = [:]
        do {
            try forEach { key, element in
                if let key { entries[key] = element.value } else { items.append(element.value) }
            }
        } catch {
            // Checked before: nothing to show for an element that no longer maps.
        }
        return isMap ? .map(entries) : .list(items)
    }
}

extension MappingContext {
    /// The elements of a wide collection, checked in place (each mapped, what it maps to dropped,
    /// its errors noted), when they qualify; nil, with nothing noted, when they do not and are to
    /// be mapped as they are met.
    func checkedElements(
        _ nodes: CheckedElements.Nodes, _ element: PropertyType, path: @autoclosure () -> String, depth: Int
    ) -> CheckedElements? {
        guard !Self.holdsObjects(element) else { return nil }
        let scalarsOnly = element.nonOptional == .mixed
        switch nodes {
        case .items(let items):
            guard items.count >= CheckedElements.minimumCount,
                items.allSatisfy({ Self.mapsAlone($0, scalarsOnly: scalarsOnly) })
            else { return nil }
            for index in items.indices {
                _ = mapValue(items[index], element, path: "\(path())[\(index)]", depth: depth + 1)
            }
        case .members(let members):
            guard members.count >= CheckedElements.minimumCount,
                members.allSatisfy({ isStoredAsGiven($0.key) && Self.mapsAlone($0.value, scalarsOnly: scalarsOnly) })
            else { return nil }
            var keys = KeyIndexTable()
            for position in members.indices {
                let key = members[position].key
                guard keys.existing(key, keyAt: { members[$0].key }) == nil else { return nil }
                keys.record(key, as: position) { members[$0].key }
            }
            for position in members.indices {
                _ = mapValue(
                    members[position].value, element, path: "\(path()).\(MessageText.shown(members[position].key))", depth: depth + 1)
            }
        }
        return CheckedElements(nodes: nodes, elementType: element, mapper: mapper)
    }

    /// Whether a node maps without the document's anchors: no alias, and for a mixed value's
    /// element a scalar (its own lists and maps are mapped as they are met).
    private static func mapsAlone(_ node: DocumentNode, scalarsOnly: Bool) -> Bool {
        var node = node
        if case .anchored(_, let inner) = node.value { node = inner }
        switch node.value {
        case .alias, .anchored: return false
        case .array, .object: return !scalarsOnly
        default: return true
        }
    }

    /// Whether `key` is a map key stored as it is given: neither refused nor percent-encoded
    /// (see `mapKey`).
    private func isStoredAsGiven(_ key: String) -> Bool {
        let bytes = key.utf8
        return !(bytes.first == UInt8(ascii: "$") || bytes.contains(UInt8(ascii: "."))
            || (options.percentEncodeMapKeys && bytes.contains(UInt8(ascii: "%"))))
    }
}
