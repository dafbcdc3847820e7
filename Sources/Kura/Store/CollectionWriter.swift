import GRDB

/// Writes list, set and map properties: one row per element in the property's own table.
struct CollectionWriter {
    let writer: ObjectWriter

    private var db: Database { writer.db }

    /// Replaces the collection's contents with `value`; returns whether anything changed.
    /// Under `.modified` an equal collection is left untouched, and embedded elements are updated in place.
    func write(
        _ value: Value, to ref: ObjectRef, _ property: Property, policy: UpdatePolicy, isNew: Bool, path: @autoclosure () -> String, depth: Int
    ) throws -> Bool {
        guard let elementType = property.type.element else { return false }
        let isMap: Bool
        if case .map = property.type { isMap = true } else { isMap = false }
        let entries = try normalized(value, isMap: isMap, property: property, path: path())
        let embeddedTarget = elementType.objectTypeName.flatMap { writer.catalog.isEmbedded($0) ? $0 : nil }
        if !isNew && policy == .modified {
            if let embeddedTarget, let changed = try updateEmbeddedInPlace(ref, property, embeddedTarget, entries, path: path(), depth: depth) {
                return changed
            }
            if elementType == .mixed,
                try ObjectReader(db: db, catalog: writer.catalog).collection(of: ref, property) == reassembled(entries, isMap: isMap)
            {
                return false
            }
        }
        var rows: [(key: String?, tag: Int64?, value: DatabaseValue)] = []
        var seen = Set<DatabaseValue>()
        var seenMixed = Set<Value>()
        let isSet: Bool
        if case .set = property.type { isSet = true } else { isSet = false }
        for (index, entry) in entries.enumerated() {
            if let key = entry.key { try MapKeyRule.check(key, path: path()) }
            if isSet && elementType == .mixed && !seenMixed.insert(entry.value).inserted { continue }
            let encoded = try encodeElement(entry.value, elementType, policy: policy, path: (entry.key.map { "\(path()).\($0)" } ?? "\(path())[\(index)]"), depth: depth)
            if isSet && elementType != .mixed && !seen.insert(encoded.value).inserted { continue }
            rows.append((entry.key, encoded.tag, encoded.value))
        }
        if !isNew {
            let current = try storedRows(ref, property, isMap: isMap)
            if elementType != .mixed && embeddedTarget == nil && policy == .modified
                && sameRows(current, rows.map { ($0.key, $0.value) }, unordered: isSet)
            {
                return false
            }
            try clear(ref, property)
        }
        try insert(rows, owner: ref, property, isMap: isMap, tagged: elementType == .mixed)
        return !isNew
    }

    private func sameRows(
        _ lhs: [(key: String?, value: DatabaseValue)], _ rhs: [(key: String?, value: DatabaseValue)], unordered: Bool
    ) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if unordered { return Set(lhs.map(\.value)) == Set(rhs.map(\.value)) }
        return zip(lhs, rhs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    private func normalized(_ value: Value, isMap: Bool, property: Property, path: @autoclosure () -> String) throws(StoreError)
        -> [(key: String?, value: Value)]
    {
        switch (value, isMap) {
        case (.null, _): return []
        case (.list(let items), false): return items.map { (nil, $0) }
        case (.map(let entries), true): return entries.keys.sorted().map { ($0, entries[$0] ?? .null) }
        default:
            throw StoreError(.typeMismatch, "\(path()): expected \(property.type), found \(value.kindName)")
        }
    }

    private func reassembled(_ entries: [(key: String?, value: Value)], isMap: Bool) -> Value {
        guard isMap else { return .list(entries.map(\.value)) }
        var map: [String: Value] = [:]
        for entry in entries { map[entry.key ?? ""] = entry.value }
        return .map(map)
    }

    private func encodeElement(_ value: Value, _ elementType: PropertyType, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int)
        throws -> (tag: Int64?, value: DatabaseValue)
    {
        if elementType == .mixed {
            let (tag, stored) = try MixedStore.encode(value, in: writer.transaction, policy: policy, path: path())
            return (tag, stored)
        }
        if let target = elementType.objectTypeName {
            if value.isNull && !elementType.isNullable {
                throw StoreError(.missingValue, "\(path()): null is not allowed in a collection of \(elementType)")
            }
            return (nil, try writer.link(value, to: target, policy: policy, path: path(), depth: depth))
        }
        return (nil, try ObjectWriter.encodeScalar(value, as: elementType, path: path()))
    }

    /// Updates embedded elements one by one when the counts match; `nil` when they do not.
    private func updateEmbeddedInPlace(
        _ ref: ObjectRef, _ property: Property, _ target: String, _ entries: [(key: String?, value: Value)], path: @autoclosure () -> String,
        depth: Int
    ) throws -> Bool? {
        let isMap: Bool
        if case .map = property.type { isMap = true } else { isMap = false }
        let current = try storedRows(ref, property, isMap: isMap)
        guard current.count == entries.count, zip(current, entries).allSatisfy({ $0.key == $1.key }) else { return nil }
        let type = try writer.catalog.type(target)
        var changed = false
        for (index, (row, entry)) in zip(current, entries).enumerated() {
            guard case .int64(let id) = row.value.storage, case .map(let fields) = entry.value,
                ObjectWriter.referenceId(fields) == nil
            else { return nil }
            changed = try writer.update(ObjectRef(type: target, id: id), type, fields, policy: .modified, path: (entry.key.map { "\(path()).\($0)" } ?? "\(path())[\(index)]"), depth: depth + 1) || changed
        }
        return changed
    }

    private func storedRows(_ ref: ObjectRef, _ property: Property, isMap: Bool) throws -> [(key: String?, value: DatabaseValue)] {
        let table = TableLayout.collectionTable(ref.type, property.name)
        let order = TableLayout.orderColumn(for: property.type)
        let key = isMap ? TableLayout.keyColumn : "NULL"
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT \(key), \(TableLayout.valueColumn) FROM \(table) WHERE \(TableLayout.ownerColumn) = ? ORDER BY \(order)"),
            arguments: [ref.id])
        return rows.map { (key: $0[0] as String?, value: $0[1] as DatabaseValue) }
    }

    /// Removes every element, deleting embedded elements and nested mixed containers with them.
    func clear(_ ref: ObjectRef, _ property: Property) throws {
        let children = try ObjectDeleter.removeCollectionRows(of: ref, property, catalog: writer.catalog, in: db)
        let deleter = ObjectDeleter(transaction: writer.transaction)
        for child in children { try deleter.delete(child) }
    }

    private func insert(
        _ rows: [(key: String?, tag: Int64?, value: DatabaseValue)], owner: ObjectRef, _ property: Property, isMap: Bool,
        tagged: Bool
    ) throws {
        guard !rows.isEmpty else { return }
        guard let slot = try writer.catalog.statements(for: owner.type).collectionInserts[property.name] else {
            throw StoreError(.unknownProperty, "\(owner.type) has no collection property '\(property.name)'")
        }
        let statement = try writer.transaction.statement(slot)
        let isList: Bool
        if case .list = property.type { isList = true } else { isList = false }
        for (position, row) in rows.enumerated() {
            var arguments: [DatabaseValue] = [owner.id.databaseValue]
            if isList { arguments.append(Int64(position).databaseValue) }
            if isMap { arguments.append(row.key?.databaseValue ?? .null) }
            arguments.append(row.value)
            if tagged { arguments.append((row.tag ?? 0).databaseValue) }
            try statement.execute(arguments)
        }
    }
}
