import GRDB
import GRDBSQLite

/// Reads objects for a stream (export, copy) a block at a time: one query for the columns of the
/// next few hundred objects of a type and one per collection property, instead of one query per
/// object and collection. Reads that jump around fall back to one object at a time (`ReadWindow`).
///
/// The statements are the connection's cached ones, so a connection kept open for many small
/// reads (a server's) prepares them once.
final class ObjectBlockReader: ObjectBlockReading {

    private let db: Database
    private let catalog: SchemaCatalog
    private let blockSize: Int64
    private var types = TypeNameMap<TypeBlock>()

    /// Reads through `db` in blocks of `blockSize` ids.
    init(db: Database, catalog: SchemaCatalog, blockSize: Int64 = ObjectBlocks.defaultSize) {
        self.db = db
        self.catalog = catalog
        self.blockSize = blockSize
    }

    /// Every stored property of the object, in the order of its type's `storedProperties`, links
    /// as `.object`, collections as `.list` or `.map`.
    func fields(of ref: ObjectRef) throws -> [Value] {
        let block = try typeBlock(ref.type)
        if let read = block.window.read(for: ref.id) {
            let loaded = try block.load(read.ids, db: db, catalog: catalog)
            if read.isBlock {
                block.objects = loaded
            } else {
                guard let fields = loaded.first ?? nil else { throw Self.missing(ref) }
                return fields
            }
        }
        let offset = Int(ref.id - block.window.block.lowerBound)
        guard offset >= 0, offset < block.objects.count, let fields = block.objects[offset] else { throw Self.missing(ref) }
        return fields
    }

    /// Every stored property of the object, by name (as `ObjectReader.values`).
    func values(of ref: ObjectRef) throws -> [String: Value] {
        let fields = try self.fields(of: ref)
        let properties = try typeBlock(ref.type).type.storedProperties
        var values: [String: Value] = [:]
        values.reserveCapacity(properties.count)
        for (property, value) in zip(properties, fields) { values[property.name] = value }
        return values
    }

    /// The object's primary key value, or `nil` when its type has none.
    func primaryKey(of ref: ObjectRef) throws -> Value? {
        guard let position = try typeBlock(ref.type).keyPosition else { return nil }
        let fields = try self.fields(of: ref)
        return position < fields.count ? fields[position] : nil
    }

    private func typeBlock(_ name: String) throws -> TypeBlock {
        try types.update(name, orAdd: { try TypeBlock(type: catalog.type(name), catalog: catalog, db: db, blockSize: blockSize) }) { $0 }
    }

    private static func missing(_ ref: ObjectRef) -> KuraError {
        KuraError.store(.objectDeleted, "object \(ref) has been deleted or was never stored")
    }
}

/// One type's statements and the objects of its current block.
private final class TypeBlock {
    let type: ObjectSchema
    /// The primary key's position among the stored properties.
    let keyPosition: Int?
    var window: ReadWindow
    /// The fields of the objects of `window.block`, by id minus the block's first id (`nil` where
    /// no object has that id).
    var objects: [[Value]?] = []
    /// Each column value's position among the stored properties, and its column in the row.
    private let columns: [(column: StoredColumn, position: Int, index: Int)]
    private let objectStatement: DirectStatement
    private let collections: [(isMap: Bool, position: Int, element: StoredColumn, statement: DirectStatement)]

    init(type: ObjectSchema, catalog: SchemaCatalog, db: Database, blockSize: Int64) throws {
        self.type = type
        window = ReadWindow(size: blockSize)
        let stored = type.storedProperties
        keyPosition = type.primaryKey.flatMap { key in stored.firstIndex { $0.name == key } }
        var positions: [String: Int] = [:]
        for (position, property) in stored.enumerated() { positions[property.name] = position }
        let (names, columnIndexes) = TableLayout.propertyColumns(of: type)
        let selected = [TableLayout.idColumn] + names
        columns = columnIndexes.map { (StoredColumn($0.property.type), positions[$0.property.name] ?? 0, $0.index + 1) }  // after "#id"
        let id = TableLayout.idColumn
        objectStatement = try DirectStatement(db, sql: """
            SELECT \(selected.joined(separator: ", ")) FROM \(TableLayout.objectTable(type.name))
            WHERE \(id) >= ? AND \(id) < ? ORDER BY \(id)
            """, cached: true)
        var collections: [(isMap: Bool, position: Int, element: StoredColumn, statement: DirectStatement)] = []
        for (position, property) in stored.enumerated() {
            guard let element = property.type.element else { continue }
            var isMap = false
            if case .map = property.type { isMap = true }
            let key = isMap ? TableLayout.keyColumn : "NULL"
            let tag = element == .mixed ? TableLayout.tagColumn : "0"
            let owner = TableLayout.ownerColumn
            let statement = try DirectStatement(db, sql: """
                SELECT \(owner), \(key), \(TableLayout.valueColumn), \(tag)
                FROM \(TableLayout.collectionTable(type.name, property.name))
                WHERE \(owner) >= ? AND \(owner) < ? ORDER BY \(owner), \(TableLayout.orderColumn(for: property.type))
                """, cached: true)
            collections.append((isMap, position, StoredColumn(element), statement))
        }
        self.collections = collections
    }

    /// The objects with ids in `ids`, each with every stored property, by id minus the first id.
    func load(_ ids: Range<Int64>, db: Database, catalog: SchemaCatalog) throws -> [[Value]?] {
        var loaded = [[Value]?](repeating: nil, count: Int(ids.upperBound - ids.lowerBound))
        let bounds = [ids.lowerBound.databaseValue, ids.upperBound.databaseValue]
        let reader = ObjectReader(db: db, catalog: catalog)
        let empty = type.storedProperties.map { property -> Value in
            if case .map = property.type { return .map([:]) }
            return property.type.isCollection ? .list([]) : .null
        }
        try objectStatement.forEachRow(bounds) { row in
            guard let id = row.int64(0), ids.contains(id) else { return }
            var fields = empty
            for (column, position, index) in columns {
                fields[position] = try column.decode(row, index, reader: reader)
            }
            loaded[Int(id - ids.lowerBound)] = fields
        }
        for (isMap, position, element, statement) in collections {
            try loadCollection(isMap, position, element, statement, bounds, first: ids.lowerBound, into: &loaded, reader: reader)
        }
        return loaded
    }

    /// Fills one collection property of the loaded objects; rows come grouped by owner, in order.
    private func loadCollection(
        _ isMap: Bool, _ position: Int, _ element: StoredColumn, _ statement: DirectStatement,
        _ bounds: [DatabaseValue], first: Int64, into loaded: inout [[Value]?], reader: ObjectReader
    ) throws {
        var owner: Int?
        var items: [Value] = []
        var entries: [String: Value] = [:]
        func flush() {
            if let owner, loaded[owner] != nil { loaded[owner]?[position] = isMap ? .map(entries) : .list(items) }
            items.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
        }
        try statement.forEachRow(bounds) { row in
            guard let rowOwner = row.int64(0).map({ Int($0 - first) }), rowOwner >= 0, rowOwner < loaded.count else { return }
            if rowOwner != owner {
                flush()
                owner = rowOwner
            }
            let value = try element.decode(row, 2, reader: reader)
            if isMap {
                guard row.storageClass(1) == SQLITE_TEXT else { return }
                entries[row.text(1)] = value
            } else {
                items.append(value)
            }
        }
        flush()
    }
}
