import CKuraSQLite
import Foundation
import GRDB
import GRDBSQLite

/// Inserts held back and written a batch at a time: each table's rows wait in a buffer and go in
/// with one `INSERT … SELECT … FROM kura_rows(?1)` run. A statement run per row paid SQLite's fixed
/// cost (cursors on the table and each index opened and closed) every time, which in bulk it pays
/// once per batch.
///
/// Rows in a buffer are not in the database yet: the transaction writes every buffer out before
/// any other statement runs (`WriteTransaction.db`), and primary keys of held rows are found here.
final class BulkInserts {
    /// The widest row `kura_rows` takes; wider tables insert row by row.
    static let maxColumns = Int(kura_rows_max_columns())

    private let connection: Database
    /// Reached for every row, by one thread: without run-time exclusivity checks.
    @exclusivity(unchecked) private var tables: [PendingRows?]
    /// The ids of held objects by primary key (its exact bytes, as the unique index compares them), per keyed type.
    private var pendingKeys = TypeNameMap<[StoredCell: Int64]>()
    /// Whether any buffer holds rows.
    private(set) var isEmpty = true

    /// Registers `kura_rows` on the transaction's connection.
    init(connection: Database, catalog: SchemaCatalog) throws {
        self.connection = connection
        tables = Array(repeating: nil, count: catalog.bulkInsertCount)
        let code = kura_rows_register(UnsafeMutableRawPointer(connection.sqliteConnection))
        guard code == SQLITE_OK else {
            throw KuraError.store(.database, "SQLite error \(code): cannot register the kura_rows function")
        }
    }

    /// Holds one or more rows of `insert`'s table: the staged cells in `range`, row after row.
    func append(_ insert: WriteStatements.BulkInsert, from stage: RowStage, cells range: Range<Int>) throws {
        let table = try rows(of: insert)
        var start = range.lowerBound
        while start < range.upperBound {
            let row = start..<min(start + insert.columns, range.upperBound)
            let bytes = stage.byteCount(of: row)
            if !table.hasRoom(forBytes: bytes) {
                try flush(table)
                _ = table.hasRoom(forBytes: bytes)  // an empty buffer grows to take any row
            }
            table.add(row, of: stage)
            start = row.upperBound
        }
        isEmpty = false
    }

    /// Notes that the held object `id` of `type` has primary key `key` (its stored form).
    func noteKey(_ key: StoredCell, of type: String, id: Int64) {
        pendingKeys.update(type, orAdd: { [:] }) { $0[key] = id }
    }

    /// The id of a held object of `type` with primary key `key`, if there is one.
    func id(of type: String, key: StoredCell) -> Int64? {
        pendingKeys.element(type)?[key]
    }

    /// The highest integer primary key among the held objects of `type`, if any.
    func highestIntegerKey(of type: String) -> Int64? {
        guard let keys = pendingKeys.element(type)?.keys else { return nil }
        var highest: Int64?
        for key in keys {
            if case .integer(let number) = key, number > highest ?? Int64.min { highest = number }
        }
        return highest
    }

    /// Writes every buffer.
    func flush() throws {
        guard !isEmpty else { return }
        for table in tables {
            if let table, table.count > 0 { try flush(table) }
        }
        isEmpty = true
    }

    /// Drops every held row, unwritten.
    func discard() {
        for table in tables { table?.discard() }
        for (type, _) in pendingKeys.all {
            pendingKeys.update(type, orAdd: { [:] }) { $0.removeAll(keepingCapacity: true) }
        }
        isEmpty = true
    }

    private func flush(_ table: PendingRows) throws {
        try table.write()
        if let type = table.insert.keyedType {
            pendingKeys.update(type, orAdd: { [:] }) { $0.removeAll(keepingCapacity: true) }
        }
    }

    private func rows(of insert: WriteStatements.BulkInsert) throws -> PendingRows {
        if let table = tables[insert.index] { return table }
        let table = try PendingRows(insert, statement: connection.makeStatement(sql: insert.sql))
        tables[insert.index] = table
        return table
    }
}

/// The rows of one table waiting in a `BulkInserts`: their cells, and the bytes of their texts and
/// blobs, which the cells point into.
private final class PendingRows {
    let insert: WriteStatements.BulkInsert
    private let statement: Statement
    private let cells: UnsafeMutablePointer<kura_cell>
    private let batch: UnsafeMutablePointer<kura_rows_batch>
    private var bytes: UnsafeMutableRawPointer
    private var byteCapacity: Int
    private var bytesUsed = 0
    /// How many rows are held.
    private(set) var count = 0

    init(_ insert: WriteStatements.BulkInsert, statement: Statement) {
        self.insert = insert
        self.statement = statement
        cells = .allocate(capacity: RowStage.rowsPerBatch * insert.columns)
        batch = .allocate(capacity: 1)
        batch.initialize(to: kura_rows_batch(cells: cells, columns: CInt(insert.columns), rows: 0))
        byteCapacity = RowStage.bytesPerBatch
        bytes = .allocate(byteCount: byteCapacity, alignment: 8)
    }

    deinit {
        cells.deallocate()
        batch.deallocate()
        bytes.deallocate()
    }

    /// Whether a row with `needed` bytes of texts and blobs fits beside the rows held. An empty
    /// buffer makes room for any row.
    func hasRoom(forBytes needed: Int) -> Bool {
        if count == 0 {
            if needed > byteCapacity {
                bytes.deallocate()
                byteCapacity = needed
                bytes = .allocate(byteCount: byteCapacity, alignment: 8)
            }
            return true
        }
        return count < RowStage.rowsPerBatch && bytesUsed + needed <= byteCapacity
    }

    /// Adds the staged cells in `row` (which `hasRoom` allowed); values a row lacks are null.
    func add(_ row: Range<Int>, of stage: RowStage) {
        let first = cells + count * insert.columns
        var column = 0
        for index in row {
            var cell = stage.cells[index]
            if cell.type == SQLITE_TEXT || cell.type == SQLITE_BLOB {
                cell.value.bytes = copy(stage.stagedBytes(of: cell))
            }
            (first + column).initialize(to: cell)
            column += 1
        }
        while column < insert.columns {
            (first + column).initialize(to: kura_cell(type: SQLITE_NULL, length: 0, value: .init(integer: 0)))
            column += 1
        }
        count += 1
    }

    /// Empties the buffer without writing it.
    func discard() {
        count = 0
        bytesUsed = 0
    }

    /// Inserts the rows held in one statement run and empties the buffer.
    func write() throws {
        guard count > 0 else { return }
        let sqlite = statement.sqliteStatement
        batch.pointee.rows = CInt(count)
        var code = kura_rows_bind(UnsafeMutableRawPointer(sqlite), 1, batch)
        if code == SQLITE_OK {
            code = sqlite3_step(sqlite)
        }
        sqlite3_reset(sqlite)
        sqlite3_clear_bindings(sqlite)
        count = 0
        bytesUsed = 0
        guard code == SQLITE_DONE else {
            throw KuraError.sqlite(code, on: sqlite3_db_handle(sqlite), sql: insert.sql)
        }
    }

    /// Copies `source` into the byte buffer (`hasRoom` made room); returns where the copy starts.
    private func copy(_ source: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        let start = bytes + bytesUsed
        if let base = source.baseAddress, source.count > 0 {
            start.copyMemory(from: base, byteCount: source.count)
        }
        bytesUsed += source.count
        return UnsafeRawPointer(start)
    }
}
