import GRDB

/// Writes list, set and map properties: one row per element in the property's own table.
struct CollectionWriter {
    let writer: ObjectWriter

    private var db: Database { get throws { try writer.db } }

    /// Replaces the collection's contents with `value`; returns whether anything changed.
    /// Under `.modified` an equal collection is left untouched, and embedded elements are updated in place.
    func write(
        _ value: Value, to ref: ObjectRef, _ stored: StoredProperty, policy: UpdatePolicy, isNew: Bool, path: @autoclosure () -> String,
        depth: Int
    ) throws -> Bool {
        let property = stored.property
        guard let elementType = stored.elementType, let kind = stored.collection else { return false }
        let isMap = kind == .map
        let target = stored.target.map { writer.storedTypes[$0] }
        let embeddedTarget = target?.isEmbedded == true ? target : nil
        let isMixed = stored.hasMixedElements
        if !isNew && policy == .modified && (embeddedTarget != nil || isMixed) {
            let entries = try normalized(value, isMap: isMap, property: property, path: path())
            if let embeddedTarget,
                let changed = try updateEmbeddedInPlace(ref, property, embeddedTarget, entries, isMap: isMap, path: path(), depth: depth)
            {
                return changed
            }
            if isMixed,
                try ObjectReader(db: db, catalog: writer.catalog).collection(of: ref, property) == reassembled(entries, isMap: isMap)
            {
                return false
            }
        }
        let isSet = kind == .set
        // Straight from the value, not through `normalized`'s entries: copying each element into
        // an entry and out again cost more than encoding it.
        var rows = RowBuilder(isSet: isSet, isMixed: isMixed, elementType: elementType, target: target)
        switch (value, isMap) {
        case (.null, _):
            break
        case (.list(let items), false):
            rows.rows.reserveCapacity(items.count)
            for index in items.indices {
                try rows.add(items[index], key: nil, using: self, policy: policy, path: "\(path())[\(index)]", depth: depth)
            }
        case (.map(let entries), true) where entries.count == 1:
            for (key, element) in entries {
                try MapKeyRule.check(key, path: path())
                try rows.add(element, key: key, using: self, policy: policy, path: "\(path()).\(key)", depth: depth)
            }
        case (.map(let entries), true):
            rows.rows.reserveCapacity(entries.count)
            for key in entries.keys.sorted() {
                try MapKeyRule.check(key, path: path())
                try rows.add(entries[key] ?? .null, key: key, using: self, policy: policy, path: "\(path()).\(key)", depth: depth)
            }
        default:
            throw StoreError(.typeMismatch, "\(path()): expected \(property.type), found \(value.kindName)")
        }
        if !isNew {
            let current = try storedRows(ref, property, isMap: isMap)
            if !isMixed && embeddedTarget == nil && policy == .modified
                && sameRows(current, rows.rows.map { StoredEntry(key: $0.key, value: $0.value) }, unordered: isSet)
            {
                return false
            }
            try clear(ref, property)
        }
        try insert(rows.rows, owner: ref, stored, isMap: isMap, tagged: isMixed)
        return !isNew
    }

    /// The rows of one collection value, built element by element: mixed elements stored, links
    /// resolved, and repeated set elements left out.
    private struct RowBuilder {
        let isSet: Bool
        let elementType: PropertyType
        /// The linked type, for links.
        let target: StoredType?
        let isMixed: Bool
        var rows: [ElementRow] = []
        private var seen = Set<DatabaseValue>()
        private var seenMixed = Set<Value>()

        init(isSet: Bool, isMixed: Bool, elementType: PropertyType, target: StoredType?) {
            self.isSet = isSet
            self.isMixed = isMixed
            self.elementType = elementType
            self.target = target
        }

        mutating func add(
            _ element: Value, key: String?, using writer: CollectionWriter, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int
        ) throws {
            if isSet && isMixed && !seenMixed.insert(element).inserted { return }
            let encoded = try writer.encodeElement(element, elementType, target: target, policy: policy, path: path(), depth: depth)
            if isSet && !isMixed && !CollectionWriter.isFirst(encoded.value, of: rows, seen: &seen) { return }
            rows.append(ElementRow(key: key, tag: encoded.tag, value: encoded.value))
        }
    }

    /// One element as stored: its map key, mixed tag and column value.
    fileprivate struct ElementRow {
        let key: String?
        let tag: Int64?
        let value: DatabaseValue
    }

    /// An element of a collection value: its map key (maps only) and value. Not generic, so
    /// copies of it are compiled, not run through the runtime's value witnesses.
    private struct Entry {
        let key: String?
        let value: Value
    }

    /// A stored element: its map key (maps only) and column value.
    private struct StoredEntry {
        let key: String?
        let value: DatabaseValue
    }

    /// Whether a set's element is not among `rows` yet. Most sets are small: a scan until there
    /// are a few elements, then `seen` (hashing every element cost more than the scan).
    fileprivate static func isFirst(_ value: DatabaseValue, of rows: [ElementRow], seen: inout Set<DatabaseValue>) -> Bool {
        let scanLimit = 8
        if rows.count < scanLimit { return !rows.contains { $0.value == value } }
        if seen.isEmpty { seen = Set(rows.map(\.value)) }
        return seen.insert(value).inserted
    }

    private func sameRows(_ lhs: [StoredEntry], _ rhs: [StoredEntry], unordered: Bool) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if unordered { return Set(lhs.map(\.value)) == Set(rhs.map(\.value)) }
        return zip(lhs, rhs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    private func normalized(_ value: Value, isMap: Bool, property: Property, path: @autoclosure () -> String) throws(StoreError)
        -> [Entry]
    {
        switch (value, isMap) {
        case (.null, _): return []
        case (.list(let items), false): return items.map { Entry(key: nil, value: $0) }
        case (.map(let entries), true): return entries.sorted { $0.key < $1.key }.map { Entry(key: $0.key, value: $0.value) }
        default:
            throw StoreError(.typeMismatch, "\(path()): expected \(property.type), found \(value.kindName)")
        }
    }

    private func reassembled(_ entries: [Entry], isMap: Bool) -> Value {
        guard isMap else { return .list(entries.map(\.value)) }
        var map: [String: Value] = [:]
        for entry in entries { map[entry.key ?? ""] = entry.value }
        return .map(map)
    }

    fileprivate func encodeElement(
        _ value: Value, _ elementType: PropertyType, target: StoredType?, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int
    ) throws -> (tag: Int64?, value: DatabaseValue) {
        if case .mixed = elementType {
            let (tag, stored) = try MixedStore.encode(value, in: writer.transaction, policy: policy, path: path())
            return (tag, stored)
        }
        if let target {
            if value.isNull && !elementType.isNullable {
                throw StoreError(.missingValue, "\(path()): null is not allowed in a collection of \(elementType)")
            }
            return (nil, try writer.link(value, to: target, policy: policy, path: path(), depth: depth))
        }
        return (nil, try ObjectWriter.encodeScalar(value, as: elementType, path: path()))
    }

    /// Updates embedded elements one by one when the counts match; `nil` when they do not.
    private func updateEmbeddedInPlace(
        _ ref: ObjectRef, _ property: Property, _ target: StoredType, _ entries: [Entry], isMap: Bool, path: @autoclosure () -> String,
        depth: Int
    ) throws -> Bool? {
        let current = try storedRows(ref, property, isMap: isMap)
        guard current.count == entries.count, zip(current, entries).allSatisfy({ $0.key == $1.key }) else { return nil }
        var changed = false
        for (index, (row, entry)) in zip(current, entries).enumerated() {
            guard case .int64(let id) = row.value.storage, case .map(let fields) = entry.value,
                ObjectWriter.referenceId(fields) == nil
            else { return nil }
            let elementChanged = try GivenValues.with(fields, of: target) { given in
                try writer.update(
                    ObjectRef(type: target.name, id: id), target, given, policy: .modified,
                    path: entry.key.map { "\(path()).\($0)" } ?? "\(path())[\(index)]", depth: depth + 1)
            }
            changed = elementChanged || changed
        }
        return changed
    }

    private func storedRows(_ ref: ObjectRef, _ property: Property, isMap: Bool) throws -> [StoredEntry] {
        let table = TableLayout.collectionTable(ref.type, property.name)
        let order = TableLayout.orderColumn(for: property.type)
        let key = isMap ? TableLayout.keyColumn : "NULL"
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT \(key), \(TableLayout.valueColumn) FROM \(table) WHERE \(TableLayout.ownerColumn) = ? ORDER BY \(order)"),
            arguments: [ref.id])
        return rows.map { StoredEntry(key: $0[0] as String?, value: $0[1] as DatabaseValue) }
    }

    /// Removes every element, deleting embedded elements and nested mixed containers with them.
    func clear(_ ref: ObjectRef, _ property: Property) throws {
        let children = try ObjectDeleter.removeCollectionRows(of: ref, property, catalog: writer.catalog, in: db)
        let deleter = ObjectDeleter(transaction: writer.transaction)
        for child in children { try deleter.delete(child) }
    }

    private func insert(_ rows: [ElementRow], owner: ObjectRef, _ property: StoredProperty, isMap: Bool, tagged: Bool) throws {
        guard !rows.isEmpty else { return }
        let slots = property.collectionInserts
        guard !slots.isEmpty else {
            throw StoreError(.unknownProperty, "\(owner.type) has no collection property '\(property.name)'")
        }
        let isList = property.collection == .list
        let width = 2 + (isList ? 1 : 0) + (isMap ? 1 : 0) + (tagged ? 1 : 0)
        var arguments: [DatabaseValue] = []
        arguments.reserveCapacity(width * min(rows.count, slots.count))
        var start = 0
        while start < rows.count {
            let end = min(start + slots.count, rows.count)
            arguments.removeAll(keepingCapacity: true)
            for position in start..<end {
                let row = rows[position]
                arguments.append(owner.id.databaseValue)
                if isList { arguments.append(Int64(position).databaseValue) }
                if isMap { arguments.append(row.key?.databaseValue ?? .null) }
                arguments.append(row.value)
                if tagged { arguments.append((row.tag ?? 0).databaseValue) }
            }
            try writer.transaction.insert(slots[end - start - 1], bulk: property.collectionBulkInsert, arguments)
            start = end
        }
    }
}
