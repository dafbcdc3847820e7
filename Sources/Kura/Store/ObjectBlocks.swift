import GRDB

/// Reads objects for a stream (export, copy) a block at a time: one query for the columns of the
/// next few hundred objects of a type and one per collection property, instead of one query per
/// object and collection. Reads that jump around fall back to one object at a time (`ReadWindow`).
final class ObjectBlocks {
    static let blockSize: Int64 = 256

    private let db: Database
    private let catalog: SchemaCatalog
    private var types: [String: TypeBlock] = [:]

    init(db: Database, catalog: SchemaCatalog) {
        self.db = db
        self.catalog = catalog
    }

    /// Every stored property of the object, by name, links as `.object` (as `ObjectReader.values`).
    func values(of ref: ObjectRef) throws -> [String: Value] {
        let block = try typeBlock(ref.type)
        if let read = block.window.read(for: ref.id) {
            let loaded = try block.load(read.ids, db: db, catalog: catalog)
            if read.isBlock {
                block.values = loaded
            } else {
                guard let values = loaded[ref.id] else { throw Self.missing(ref) }
                return values
            }
        }
        guard let values = block.values[ref.id] else { throw Self.missing(ref) }
        return values
    }

    private func typeBlock(_ name: String) throws -> TypeBlock {
        if let block = types[name] { return block }
        let block = try TypeBlock(type: catalog.type(name), catalog: catalog, db: db)
        types[name] = block
        return block
    }

    private static func missing(_ ref: ObjectRef) -> StoreError {
        StoreError(.objectDeleted, "object \(ref) has been deleted or was never stored")
    }
}

/// One type's statements and the objects of its current block.
private final class TypeBlock {
    let type: ObjectSchema
    var window = ReadWindow(size: ObjectBlocks.blockSize)
    var values: [Int64: [String: Value]] = [:]
    private let columns: [(property: Property, index: Int)]
    private let objects: DirectStatement
    private let collections: [(property: Property, element: PropertyType, statement: DirectStatement)]

    init(type: ObjectSchema, catalog: SchemaCatalog, db: Database) throws {
        self.type = type
        let (names, positions) = TableLayout.propertyColumns(of: type)
        let selected = [TableLayout.idColumn] + names
        columns = positions.map { ($0.property, $0.index + 1) }  // after "#id"
        let id = TableLayout.idColumn
        objects = try DirectStatement(db, sql: """
            SELECT \(selected.joined(separator: ", ")) FROM \(TableLayout.objectTable(type.name))
            WHERE \(id) >= ? AND \(id) < ? ORDER BY \(id)
            """)
        var collections: [(property: Property, element: PropertyType, statement: DirectStatement)] = []
        for property in type.storedProperties {
            guard let element = property.type.element else { continue }
            let key: String
            if case .map = property.type { key = TableLayout.keyColumn } else { key = "NULL" }
            let tag = element == .mixed ? TableLayout.tagColumn : "0"
            let owner = TableLayout.ownerColumn
            let statement = try DirectStatement(db, sql: """
                SELECT \(owner), \(key), \(TableLayout.valueColumn), \(tag)
                FROM \(TableLayout.collectionTable(type.name, property.name))
                WHERE \(owner) >= ? AND \(owner) < ? ORDER BY \(owner), \(TableLayout.orderColumn(for: property.type))
                """)
            collections.append((property, element, statement))
        }
        self.collections = collections
    }

    /// The objects with ids in `ids`, each with every stored property.
    func load(_ ids: Range<Int64>, db: Database, catalog: SchemaCatalog) throws -> [Int64: [String: Value]] {
        var loaded: [Int64: [String: Value]] = [:]
        let bounds = [ids.lowerBound.databaseValue, ids.upperBound.databaseValue]
        let reader = ObjectReader(db: db, catalog: catalog)
        try objects.forEachRow(bounds) { row in
            guard let id = row.int64(0) else { return }
            var values: [String: Value] = [:]
            values.reserveCapacity(type.storedProperties.count)
            for (property, index) in columns {
                values[property.name] = try reader.decode(row[index], tag: row.int64(index + 1), as: property.type)
            }
            for (property, _, _) in collections {
                if case .map = property.type { values[property.name] = .map([:]) } else { values[property.name] = .list([]) }
            }
            loaded[id] = values
        }
        for (property, element, statement) in collections {
            try loadCollection(property, element, statement, bounds, into: &loaded, reader: reader)
        }
        return loaded
    }

    /// Fills one collection property of the loaded objects; rows come grouped by owner, in order.
    private func loadCollection(
        _ property: Property, _ element: PropertyType, _ statement: DirectStatement, _ bounds: [DatabaseValue],
        into loaded: inout [Int64: [String: Value]], reader: ObjectReader
    ) throws {
        var isMap = false
        if case .map = property.type { isMap = true }
        var owner: Int64?
        var items: [Value] = []
        var entries: [String: Value] = [:]
        func flush() {
            guard let owner else { return }
            loaded[owner]?[property.name] = isMap ? .map(entries) : .list(items)
            items.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
        }
        try statement.forEachRow(bounds) { row in
            let rowOwner = row.int64(0)
            if rowOwner != owner {
                flush()
                owner = rowOwner
            }
            let value = try reader.decode(row[2], tag: row.int64(3), as: element)
            if isMap {
                guard case .string(let key) = row[1].storage else { return }
                entries[key] = value
            } else {
                items.append(value)
            }
        }
        flush()
    }
}
