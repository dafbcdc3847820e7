/// The SQL of the statements that write one type's objects, made once per schema. Each statement
/// has a slot number, so a write transaction keeps its prepared statement in an array rather than
/// hashing SQL text for every object. A class: the writer fetches a type's statements for every
/// object, and copying the struct retained each of its strings and dictionaries.
final class WriteStatements: Sendable {
    /// A statement's text and the slot its prepared form is kept in.
    struct Slot: Sendable {
        let sql: String
        let index: Int
    }

    /// Inserts an object: `#id`, then every non-collection property in stored order, a mixed
    /// property's tag right after its value.
    let insert: Slot
    /// Finds an object's id by primary key; `nil` for types without one.
    let lookup: Slot?
    /// Inserts elements of a collection property, by property name: the statement at index k − 1
    /// inserts k elements, each as owner, then position (lists) or key (maps), then value, then tag
    /// (mixed elements). Several rows a statement: each statement run has a fixed cost (cursors
    /// opened and freed) that most collections, of a few elements, paid per element.
    let collectionInserts: [String: [Slot]]

    /// The bulk form of `insert`, for a transaction that buffers inserts; `nil` for a table too wide for it.
    let bulkInsert: BulkInsert?
    /// The bulk forms of `collectionInserts`, by property name.
    let collectionBulkInserts: [String: BulkInsert]

    /// An insert of a whole batch of rows in one statement run, through `kura_rows` (see `BulkInserts`).
    /// A class, passed for every row without retaining its strings.
    final class BulkInsert: Sendable {
        let sql: String
        /// The number of this insert's buffer in a transaction's `BulkInserts`.
        let index: Int
        /// How many values a row has.
        let columns: Int
        /// The type whose primary keys the rows hold, for an object table with one: its pending
        /// rows must still be found by key.
        let keyedType: String?

        init(sql: String, index: Int, columns: Int, keyedType: String?) {
            self.sql = sql
            self.index = index
            self.columns = columns
            self.keyedType = keyedType
        }
    }

    init(
        insert: Slot, lookup: Slot?, collectionInserts: [String: [Slot]], bulkInsert: BulkInsert?,
        collectionBulkInserts: [String: BulkInsert]
    ) {
        self.insert = insert
        self.lookup = lookup
        self.collectionInserts = collectionInserts
        self.bulkInsert = bulkInsert
        self.collectionBulkInserts = collectionBulkInserts
    }

    /// The most elements one collection insert statement takes.
    static let elementsPerInsert = 8
    /// The columns one bulk insert takes at most: the width of SQLite's `kura_rows` table
    /// (`BulkInserts.maxColumns`); a table with more is written row by row.
    static let maxBulkColumns = 128

    /// Makes the statements of every type, numbering slots from 0; returns them and the slot count.
    static func make(for schema: Schema) -> (statements: [String: WriteStatements], slots: Int, bulkSlots: Int) {
        var all: [String: WriteStatements] = [:]
        var next = 0
        func slot(_ sql: String) -> Slot {
            defer { next += 1 }
            return Slot(sql: sql, index: next)
        }
        var nextBulk = 0
        func bulk(_ table: String, _ columns: [String], keyedType: String? = nil) -> BulkInsert? {
            guard columns.count <= Self.maxBulkColumns else { return nil }
            defer { nextBulk += 1 }
            return BulkInsert(sql: bulkSQL(table, columns), index: nextBulk, columns: columns.count, keyedType: keyedType)
        }
        for type in schema.types {
            let table = TableLayout.objectTable(type.name)
            let columns = [TableLayout.idColumn] + TableLayout.propertyColumns(of: type).names
            let insert = slot(insertSQL(table, columns))
            let lookup = type.primaryKey.map { key in
                slot("SELECT \(TableLayout.idColumn) FROM \(table) WHERE \(TableLayout.column(key)) = ?")
            }
            var collections: [String: [Slot]] = [:]
            var collectionBulks: [String: BulkInsert] = [:]
            for property in type.storedProperties where property.type.isCollection {
                let columns = TableLayout.collectionColumns(of: property.type)
                let table = TableLayout.collectionTable(type.name, property.name)
                collections[property.name] = (1...elementsPerInsert).map { slot(insertSQL(table, columns, rows: $0)) }
                collectionBulks[property.name] = bulk(table, columns)
            }
            all[type.name] = WriteStatements(
                insert: insert, lookup: lookup, collectionInserts: collections,
                bulkInsert: bulk(table, columns, keyedType: type.primaryKey == nil ? nil : type.name),
                collectionBulkInserts: collectionBulks)
        }
        return (all, next, nextBulk)
    }

    /// `OR FAIL`, not the default `ABORT`: on a failure SQLite keeps the rows the statement already
    /// wrote instead of undoing them, which is safe here since every write runs in a savepoint or a
    /// transaction that the error rolls back.
    /// An import runs measurably faster with it, at the same instruction count (why, callgrind
    /// does not show).
    private static func insertSQL(_ table: String, _ columns: [String], rows: Int = 1) -> String {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let values = Array(repeating: row, count: rows).joined(separator: ", ")
        return "INSERT OR FAIL INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(values)"
    }

    private static func bulkSQL(_ table: String, _ columns: [String]) -> String {
        let selected = columns.indices.map { "c\($0)" }.joined(separator: ", ")
        return "INSERT OR FAIL INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(selected) FROM kura_rows(?1)"
    }
}
