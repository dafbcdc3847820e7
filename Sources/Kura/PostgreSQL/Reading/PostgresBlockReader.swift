/// Reads objects for a stream (export, copy) a block at a time from a PostgreSQL realm: one query
/// for the columns of the next few hundred objects of a type and one per collection property;
/// reads that jump around read one object at a time (`ReadWindow`).
final class PostgresBlockReader: ObjectBlockReading {
    private let session: PostgresSession
    private let catalog: SchemaCatalog
    private let blockSize: Int64
    private var types = TypeNameMap<PostgresTypeBlock>()

    init(session: PostgresSession, catalog: SchemaCatalog, blockSize: Int64) {
        self.session = session
        self.catalog = catalog
        self.blockSize = blockSize
    }

    func fields(of ref: ObjectRef) throws -> [Value] {
        let block = try typeBlock(ref.type)
        if let read = block.window.read(for: ref.id) {
            let loaded = try block.load(read.ids, reader: PostgresObjectReader(session: session, catalog: catalog))
            if read.isBlock {
                block.objects = loaded
            } else {
                guard let fields = loaded.first ?? nil else { throw PostgresObjectReader.missing(ref) }
                return fields
            }
        }
        let offset = Int(ref.id - block.window.block.lowerBound)
        guard offset >= 0, offset < block.objects.count, let fields = block.objects[offset] else {
            throw PostgresObjectReader.missing(ref)
        }
        return fields
    }

    func values(of ref: ObjectRef) throws -> [String: Value] {
        let fields = try self.fields(of: ref)
        let properties = try typeBlock(ref.type).type.storedProperties
        var values: [String: Value] = [:]
        values.reserveCapacity(properties.count)
        for (property, value) in zip(properties, fields) { values[property.name] = value }
        return values
    }

    func primaryKey(of ref: ObjectRef) throws -> Value? {
        guard let position = try typeBlock(ref.type).keyPosition else { return nil }
        let fields = try self.fields(of: ref)
        return position < fields.count ? fields[position] : nil
    }

    private func typeBlock(_ name: String) throws -> PostgresTypeBlock {
        try types.update(name, orAdd: { PostgresTypeBlock(type: try catalog.type(name), blockSize: blockSize) }) { $0 }
    }
}

/// One type's statements and the objects of its current block.
private final class PostgresTypeBlock {
    let type: ObjectSchema
    /// The primary key's position among the stored properties.
    let keyPosition: Int?
    var window: ReadWindow
    /// The fields of the objects of `window.block`, by id minus the block's first id.
    var objects: [[Value]?] = []
    /// Each column's property, its position among the stored properties, and its column in the row.
    private let columns: [(property: Property, position: Int, index: Int)]
    private let objectSQL: String
    private let collections: [(isMap: Bool, position: Int, element: PropertyType, sql: String)]

    init(type: ObjectSchema, blockSize: Int64) {
        self.type = type
        window = ReadWindow(size: blockSize)
        let stored = type.storedProperties
        keyPosition = type.primaryKey.flatMap { key in stored.firstIndex { $0.name == key } }
        var positions: [String: Int] = [:]
        for (position, property) in stored.enumerated() { positions[property.name] = position }
        let (names, columnIndexes) = TableLayout.propertyColumns(of: type)
        // After "#id".
        columns = columnIndexes.map { ($0.property, positions[$0.property.name] ?? 0, $0.index + 1) }
        let id = TableLayout.idColumn
        objectSQL = """
            SELECT \(([id] + names).joined(separator: ", ")) FROM \(TableLayout.objectTable(type.name))
            WHERE \(id) >= $1 AND \(id) < $2 ORDER BY \(id)
            """
        var collections: [(isMap: Bool, position: Int, element: PropertyType, sql: String)] = []
        for (position, property) in stored.enumerated() {
            guard let element = property.type.element else { continue }
            var isMap = false
            if case .map = property.type { isMap = true }
            let owner = TableLayout.ownerColumn
            collections.append((isMap, position, element, """
                SELECT \(owner), \(isMap ? TableLayout.keyColumn : "NULL"), \(TableLayout.valueColumn), \
                \(element == .mixed ? TableLayout.tagColumn : "0")
                FROM \(TableLayout.collectionTable(type.name, property.name))
                WHERE \(owner) >= $1 AND \(owner) < $2 ORDER BY \(owner), \(PostgresLayout.orderColumn(for: property.type))
                """))
        }
        self.collections = collections
    }

    /// The objects with ids in `ids`, each with every stored property, by id minus the first id.
    func load(_ ids: Range<Int64>, reader: PostgresObjectReader) throws -> [[Value]?] {
        var loaded = [[Value]?](repeating: nil, count: Int(ids.upperBound - ids.lowerBound))
        let bounds: [StoredCell] = [.integer(ids.lowerBound), .integer(ids.upperBound)]
        let empty = type.storedProperties.map { property -> Value in
            if case .map = property.type { return .map([:]) }
            return property.type.isCollection ? .list([]) : .null
        }
        for row in try reader.session.rows(objectSQL, bounds) {
            guard let id = row.first?.objectId, ids.contains(id) else { continue }
            var fields = empty
            for (property, position, index) in columns where index < row.count {
                let tag = property.type == .mixed && index + 1 < row.count ? row[index + 1].objectId : nil
                fields[position] = try reader.decode(row[index], tag: tag, as: property.type)
            }
            loaded[Int(id - ids.lowerBound)] = fields
        }
        for collection in collections {
            try loadCollection(collection, bounds, first: ids.lowerBound, into: &loaded, reader: reader)
        }
        return loaded
    }

    /// Fills one collection property of the loaded objects; rows come grouped by owner, in order.
    private func loadCollection(
        _ collection: (isMap: Bool, position: Int, element: PropertyType, sql: String), _ bounds: [StoredCell], first: Int64,
        into loaded: inout [[Value]?], reader: PostgresObjectReader
    ) throws {
        var owner: Int?
        var items: [Value] = []
        var entries: [String: Value] = [:]
        func flush() {
            if let owner, loaded[owner] != nil {
                loaded[owner]?[collection.position] = collection.isMap ? .map(entries) : .list(items)
            }
            items.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
        }
        for row in try reader.session.rows(collection.sql, bounds) where row.count == 4 {
            guard let rowOwner = row[0].objectId.map({ Int($0 - first) }), rowOwner >= 0, rowOwner < loaded.count else { continue }
            if rowOwner != owner {
                flush()
                owner = rowOwner
            }
            let value = try reader.decode(row[2], tag: row[3].objectId, as: collection.element)
            if collection.isMap {
                entries[try PostgresLayout.mapKey(row[1])] = value
            } else {
                items.append(value)
            }
        }
        flush()
    }
}
