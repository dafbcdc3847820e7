/// Writes list, set and map properties: one row per element in the property's own table.
struct CollectionWriter {
    let writer: ObjectWriter

    /// Replaces the collection's contents with `value`; returns whether anything changed.
    ///
    /// An existing collection that already holds what `value` gives is left untouched: element for
    /// element the same stored values (decimals equal by value under `.modified`, a set's elements
    /// in any order). A nested document for an object without a primary key updates the object
    /// the collection holds at its index or key now (`ObjectWriter.updateHeld`).
    func write(
        _ value: MappedValue, to ref: ObjectRef, _ stored: StoredProperty, policy: UpdatePolicy, isNew: Bool, path: @autoclosure () -> String,
        depth: Int
    ) throws -> Bool {
        let property = stored.property
        guard let elementType = stored.elementType, let kind = stored.collection else { return false }
        let isMap = kind == .map
        let target = stored.target.map { writer.storedTypes[$0] }
        let isMixed = stored.hasMixedElements
        var value = value
        var current: [StoredEntry] = []
        if !isNew {
            if isMixed {
                let held = try writer.transaction.storage.collection(of: ref, property)
                let given = try resolvingLinks(value, held: held, isMap: isMap, property: property, policy: policy, path: path(), depth: depth)
                if Self.unchanged(held, given, isSet: kind == .set, exactly: policy != .modified) { return false }
                value = .plain(given)
            }
            current = try storedRows(ref, property, isMap: isMap)
        }
        // The objects the collection holds now, for nested documents to update in place.
        let held = !isNew && target?.key == nil ? HeldElements(current, isMap: isMap, target: target) : nil
        // Straight from the value, not through `normalized`'s entries: copying each element into
        // an entry and out again cost more than encoding it. An existing collection's new rows are
        // all staged, to compare with the stored ones; a new object's are inserted a batch at a
        // time, so that a collection of a million elements is never staged whole.
        let stage = writer.transaction.stage
        var rows = StagedElements(
            stage: stage, owner: ref, stored, kind: kind, isMixed: isMixed, elementType: elementType, target: target, inBatches: isNew)
        defer { stage.reset(to: rows.start) }
        switch (value, isMap) {
        case (.plain(.null), _):
            break
        case (.plain(.list(let items)), false):
            for index in items.indices {
                try rows.add(
                    .plain(items[index]), key: nil, held: held?[index], using: self, policy: policy, path: "\(path())[\(index)]", depth: depth)
            }
        case (.list(let items), false):
            for index in items.indices {
                try rows.add(items[index], key: nil, held: held?[index], using: self, policy: policy, path: "\(path())[\(index)]", depth: depth)
            }
        case (.plain(.map(let entries)), true):
            try Self.forEachEntry(of: entries, path: path()) { key, element in
                try rows.add(.plain(element), key: key, held: held?[key], using: self, policy: policy, path: "\(path()).\(key)", depth: depth)
            }
        case (.map(let entries), true):
            for index in entries.keyOrder {
                let key = entries[index].key
                try MapKeyRule.check(key, path: path())
                try rows.add(entries[index].value, key: key, held: held?[key], using: self, policy: policy, path: "\(path()).\(key)", depth: depth)
            }
        case (.checked(let elements), _) where elements.isMap == isMap:
            var index = 0
            try elements.forEach { key, element in
                if let key { try MapKeyRule.check(key, path: path()) }
                try rows.add(
                    element, key: key, held: key.map { held?[$0] } ?? held?[index], using: self, policy: policy,
                    path: key.map { "\(path()).\($0)" } ?? "\(path())[\(index)]", depth: depth)
                index += 1
            }
        default:
            throw KuraError.store(.typeMismatch, "\(path()): expected \(property.type), found \(value.kindName)")
        }
        if !isNew {
            let given = rows.entries()
            if !isMixed
                && sameRows(current, given, unordered: kind == .set, decimals: policy == .modified && elementType.nonOptional == .decimal)
            {
                return rows.heldChanged
            }
            try clear(ref, property, keeping: target?.isEmbedded == true ? Set(given.compactMap(\.objectId)) : [])
        }
        try rows.flush(into: self)
        return !isNew
    }

    /// The objects a collection of objects without a primary key holds, by index (lists and sets,
    /// in stored order) or by key (maps).
    private struct HeldElements {
        let byIndex: [Int64?]
        let byKey: [String: Int64]
        let type: String

        init?(_ rows: [StoredEntry], isMap: Bool, target: StoredType?) {
            guard let target, !rows.isEmpty else { return nil }
            type = target.name
            if isMap {
                var byKey: [String: Int64] = [:]
                for row in rows { if let key = row.key, let id = row.objectId { byKey[key] = id } }
                self.byKey = byKey
                byIndex = []
            } else {
                byIndex = rows.map(\.objectId)
                byKey = [:]
            }
        }

        subscript(index: Int) -> ObjectRef? {
            guard index < byIndex.count, let id = byIndex[index] else { return nil }
            return ObjectRef(type: type, id: id)
        }

        subscript(key: String) -> ObjectRef? {
            byKey[key].map { ObjectRef(type: type, id: $0) }
        }
    }

    /// A mixed collection value with its links resolved against the elements held at the same
    /// index or key (`ObjectWriter.resolvingLinks`).
    private func resolvingLinks(
        _ value: MappedValue, held: Value, isMap: Bool, property: Property, policy: UpdatePolicy, path: @autoclosure () -> String,
        depth: Int
    ) throws -> Value {
        let entries = try normalized(value, isMap: isMap, property: property, path: path())
        if isMap {
            var heldEntries: [String: Value] = [:]
            if case .map(let stored) = held { heldEntries = stored }
            var resolved: [String: Value] = [:]
            for entry in entries {
                let key = entry.key ?? ""
                resolved[key] = try writer.resolvingLinks(
                    in: entry.value.value, held: heldEntries[key], policy: policy, path: "\(path()).\(key)", depth: depth)
            }
            return .map(resolved)
        }
        var heldItems: [Value] = []
        if case .list(let stored) = held { heldItems = stored }
        var resolved: [Value] = []
        resolved.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            resolved.append(try writer.resolvingLinks(
                in: entry.value.value, held: index < heldItems.count ? heldItems[index] : nil, policy: policy,
                path: "\(path())[\(index)]", depth: depth))
        }
        return .list(resolved)
    }

    /// Calls `body` with each entry of a map value in key order, each key checked first.
    private static func forEachEntry<Element>(
        of entries: [String: Element], path: @autoclosure () -> String, _ body: (String, Element) throws -> Void
    ) throws {
        if entries.count == 1, let (key, element) = entries.first {
            try MapKeyRule.check(key, path: path())
            try body(key, element)
            return
        }
        for key in entries.keys.sorted() {
            try MapKeyRule.check(key, path: path())
            if let element = entries[key] { try body(key, element) }
        }
    }

    /// An element of a collection value: its map key (maps only) and value. Not generic, so
    /// copies of it are compiled, not run through the runtime's value witnesses.
    private struct Entry {
        let key: String?
        let value: MappedValue
    }

    /// A stored element: its map key (maps only) and column value.
    struct StoredEntry {
        let key: String?
        let value: StoredCell

        /// The id of the object a link element holds.
        var objectId: Int64? { value.objectId }
    }

    /// Whether the stored rows and the given ones hold equal elements; decimals equal by value, as
    /// `modified` compares them.
    private func sameRows(_ lhs: [StoredEntry], _ rhs: [StoredEntry], unordered: Bool, decimals: Bool) -> Bool {
        guard lhs.count == rhs.count else { return false }
        let comparable: (StoredEntry) -> StoredCell = decimals ? { $0.value.decimalNormalized } : { $0.value }
        if unordered { return Set(lhs.map(comparable)) == Set(rhs.map(comparable)) }
        return zip(lhs, rhs).allSatisfy { $0.key == $1.key && comparable($0).isIdentical(to: comparable($1)) }
    }

    /// Whether a stored mixed collection equals the given one as `modified` compares values; a set's
    /// elements in any order, equal by value, repeated ones counted once.
    private static func unchanged(_ stored: Value, _ given: Value, isSet: Bool, exactly: Bool) -> Bool {
        guard isSet, case .list(let storedItems) = stored, case .list(let givenItems) = given else {
            return exactly ? ValueOrder.identical(stored, given) : ValueOrder.unchanged(stored, given)
        }
        var givenMembers = SetMembers()
        for item in givenItems { _ = givenMembers.insert(item) }
        // As Realm inserts into a set: a given 1.0 is already there when 1 is.
        return givenMembers.count == storedItems.count && storedItems.allSatisfy { givenMembers.contains($0) }
    }

    private func normalized(_ value: MappedValue, isMap: Bool, property: Property, path: @autoclosure () -> String) throws -> [Entry] {
        switch (value, isMap) {
        case (.plain(.null), _): return []
        case (.plain(.list(let items)), false): return items.map { Entry(key: nil, value: .plain($0)) }
        case (.list(let items), false): return items.map { Entry(key: nil, value: $0) }
        case (.plain(.map(let entries)), true): return entries.sorted { $0.key < $1.key }.map { Entry(key: $0.key, value: .plain($0.value)) }
        case (.map(let entries), true): return entries.keyOrder.map { Entry(key: entries[$0].key, value: entries[$0].value) }
        case (.checked(let elements), _) where elements.isMap == isMap:
            var entries: [Entry] = []
            try elements.forEach { key, element in entries.append(Entry(key: key, value: element)) }
            return entries
        default:
            throw KuraError.store(.typeMismatch, "\(path()): expected \(property.type), found \(value.kindName)")
        }
    }

    func encodeElement(
        _ value: MappedValue, _ elementType: PropertyType, target: StoredType?, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int
    ) throws -> (tag: Int64?, value: StoredCell) {
        if case .mixed = elementType {
            let (tag, stored) = try MixedStore.encode(value, in: writer.transaction, policy: policy, path: path())
            return (tag, stored)
        }
        if let target {
            if value.isNull && !elementType.isNullable {
                throw KuraError.store(.missingValue, "\(path()): null is not allowed in a collection of \(elementType)")
            }
            return (nil, try writer.link(value, to: target, policy: policy, path: path(), depth: depth))
        }
        return (nil, try ObjectWriter.encodeScalar(value.value, as: elementType, path: path()))
    }

    private func storedRows(_ ref: ObjectRef, _ property: Property, isMap: Bool) throws -> [StoredEntry] {
        try writer.transaction.storage.collectionElements(of: ref, property, isMap: isMap).map { StoredEntry(key: $0.key, value: $0.value) }
    }

    /// Removes every element, deleting embedded elements (but those in `keeping`, which the new
    /// elements hold again) and nested mixed containers with them.
    func clear(_ ref: ObjectRef, _ property: Property, keeping: Set<Int64> = []) throws {
        let children = try writer.transaction.storage.removeCollection(of: ref, property)
        let deleter = ObjectDeleter(transaction: writer.transaction)
        for child in children where !keeping.contains(child.id) { try deleter.delete(child) }
    }

    /// Inserts `count` staged rows of `width` cells each, the first at cell `first`.
    func insertRows(_ count: Int, from first: Int, width: Int, owner: ObjectRef, _ property: StoredProperty) throws {
        guard count > 0 else { return }
        let slots = property.collectionInserts
        guard !slots.isEmpty else {
            throw KuraError.store(.unknownProperty, "\(owner.type) has no collection property '\(property.name)'")
        }
        // Held inserts take every row at once; a statement takes up to `slots.count` rows.
        let perRun = writer.transaction.storage.holdsInserts && property.collectionBulkInsert != nil ? count : slots.count
        var start = 0
        while start < count {
            let end = min(start + perRun, count)
            try writer.transaction.storage.insert(
                slots[min(end - start, slots.count) - 1], bulk: property.collectionBulkInsert,
                cells: (first + start * width)..<(first + end * width))
            start = end
        }
    }
}
