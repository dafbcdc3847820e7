import Foundation
import GRDB
import GRDBSQLite

/// A prepared statement run with its values bound through SQLite's C API. On bulk writes GRDB's
/// `StatementArguments` (an array built through a key path per call) cost more than the insert
/// itself; this binds each value in place and steps once.
struct DirectStatement {
    let statement: Statement
    private let connection: OpaquePointer?
    /// The row's texts and blobs, bound without a copy (SQLite's `SQLITE_STATIC`): a copy per
    /// value (`SQLITE_TRANSIENT`) was a malloc and a free each, 3.5% of an import's instructions.
    private let buffer = BindBuffer()

    /// Prepares `sql` on `db`; `cached` reuses the connection's prepared statement for that text
    /// (which must then not be run again before this one is done with).
    init(_ db: Database, sql: String, cached: Bool = false) throws {
        statement = try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        connection = db.sqliteConnection
    }

    /// Runs the statement once with `values` bound to its parameters in order.
    func execute(_ values: [DatabaseValue]) throws {
        try bind(values)
        let sqlite = statement.sqliteStatement
        let code = sqlite3_step(sqlite)
        release(sqlite)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw failure(code) }
    }

    /// Runs the statement once with the staged cells in `range` bound to its parameters in order.
    /// Texts and blobs are bound from the stage's bytes, which stay put while the statement runs.
    func execute(from stage: RowStage, cells range: Range<Int>) throws {
        let sqlite = statement.sqliteStatement
        for (offset, index) in range.enumerated() {
            let cell = stage.cells[index]
            let parameter = CInt(offset + 1)
            let code: CInt
            switch cell.type {
            case SQLITE_INTEGER: code = sqlite3_bind_int64(sqlite, parameter, cell.value.integer)
            case SQLITE_FLOAT: code = sqlite3_bind_double(sqlite, parameter, cell.value.real)
            case SQLITE_TEXT:
                code = sqlite3_bind_text(sqlite, parameter, stage.address(of: cell).assumingMemoryBound(to: CChar.self), cell.length, nil)
            case SQLITE_BLOB: code = sqlite3_bind_blob(sqlite, parameter, stage.address(of: cell), cell.length, nil)
            default: code = sqlite3_bind_null(sqlite, parameter)
            }
            guard code == SQLITE_OK else {
                sqlite3_clear_bindings(sqlite)
                throw failure(code)
            }
        }
        let code = sqlite3_step(sqlite)
        sqlite3_reset(sqlite)
        sqlite3_clear_bindings(sqlite)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw failure(code) }
    }

    /// Resets the statement and lets go of the buffer its texts and blobs were bound from.
    private func release(_ sqlite: SQLiteStatement?) {
        sqlite3_reset(sqlite)
        if buffer.isBound {
            sqlite3_clear_bindings(sqlite)
            buffer.isBound = false
        }
    }

    /// Runs the statement with `values` bound and returns the first column of its first row as an
    /// integer, or `nil` when there is no row or the column is null.
    func fetchInt64(_ values: [DatabaseValue]) throws -> Int64? {
        try bind(values)
        let sqlite = statement.sqliteStatement
        defer { release(sqlite) }
        let code = sqlite3_step(sqlite)
        if code == SQLITE_DONE { return nil }
        guard code == SQLITE_ROW else { throw failure(code) }
        return sqlite3_column_type(sqlite, 0) == SQLITE_NULL ? nil : sqlite3_column_int64(sqlite, 0)
    }

    /// Runs the statement with `values` bound and calls `body` with each row's columns.
    func forEachRow(_ values: [DatabaseValue], _ body: (DirectRow) throws -> Void) throws {
        try bind(values)
        let sqlite = statement.sqliteStatement
        defer { release(sqlite) }
        while true {
            let code = sqlite3_step(sqlite)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code) }
            try body(DirectRow(statement: sqlite))
        }
    }

    private func bind(_ values: [DatabaseValue]) throws {
        let sqlite = statement.sqliteStatement
        let bytes = DatabaseValue.byteCount(of: values)
        // Reserved before any copy, so no pointer bound below moves; not at all without text bytes.
        var free = bytes > 0 ? buffer.reserve(bytes) : nil
        for (offset, value) in values.enumerated() {
            let index = CInt(offset + 1)
            let code: CInt
            switch value.storage {
            case .null: code = sqlite3_bind_null(sqlite, index)
            case .int64(let number): code = sqlite3_bind_int64(sqlite, index, number)
            case .double(let number): code = sqlite3_bind_double(sqlite, index, number)
            case .string(let text):
                let start = free ?? buffer.reserve(0)  // reserved above, unless every text is empty
                let end = BindBuffer.copy(text, to: start)
                free = end
                buffer.isBound = true
                code = sqlite3_bind_text(sqlite, index, start, CInt(end - start), nil)
            case .blob(let data):
                let start = free ?? buffer.reserve(0)
                let end = BindBuffer.copy(data, to: start)
                free = end
                buffer.isBound = true
                code = sqlite3_bind_blob(sqlite, index, start, CInt(end - start), nil)
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
    }

    private func failure(_ code: CInt) -> KuraError {
        KuraError.sqlite(code, on: connection, sql: statement.sql)
    }
}

extension DatabaseValue {
    /// How many bytes the texts and blobs among `values` take, as they are bound or copied.
    static func byteCount(of values: some Sequence<DatabaseValue>) -> Int {
        var total = 0
        for value in values {
            switch value.storage {
            case .string(let text): total += text.utf8.count
            case .blob(let data): total += data.count
            default: break
            }
        }
        return total
    }
}

/// The current row of a `DirectStatement`, valid only inside `forEachRow`'s body.
struct DirectRow {
    fileprivate let statement: SQLiteStatement

    /// The value of column `index` (from 0).
    subscript(index: Int) -> DatabaseValue {
        let column = CInt(index)
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return sqlite3_column_int64(statement, column).databaseValue
        case SQLITE_FLOAT: return sqlite3_column_double(statement, column).databaseValue
        case SQLITE_TEXT:
            guard sqlite3_column_text(statement, column) != nil else { return .null }
            return text(index).databaseValue
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite3_column_blob(statement, column), count > 0 else { return Data().databaseValue }
            return Data(bytes: bytes, count: count).databaseValue
        default: return .null
        }
    }

    /// The value of column `index` (from 0) as a stored cell.
    func cell(_ index: Int) -> StoredCell {
        let column = CInt(index)
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard sqlite3_column_text(statement, column) != nil else { return .null }
            return .text(text(index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite3_column_blob(statement, column), count > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    /// How many columns the row has.
    var count: Int { Int(sqlite3_column_count(statement)) }

    /// SQLite's storage class of column `index` (`SQLITE_INTEGER`, `SQLITE_TEXT`, …).
    func storageClass(_ index: Int) -> CInt {
        sqlite3_column_type(statement, CInt(index))
    }

    /// The integer in column `index`, which holds one.
    func integer(_ index: Int) -> Int64 {
        sqlite3_column_int64(statement, CInt(index))
    }

    /// The real number in column `index`, which holds one.
    func real(_ index: Int) -> Double {
        sqlite3_column_double(statement, CInt(index))
    }

    /// The text in column `index`, which holds text.
    func text(_ index: Int) -> String {
        guard let text = sqlite3_column_text(statement, CInt(index)) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, CInt(index)))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The integer in column `index`, or `nil` when it holds null.
    func int64(_ index: Int) -> Int64? {
        sqlite3_column_type(statement, CInt(index)) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, CInt(index))
    }
}

/// The bytes of one row's texts and blobs while its statement runs. A class, so the copies of a
/// `DirectStatement` share it; it outlives every binding made from it (they are cleared on reset).
private final class BindBuffer {
    /// Allocated on first use: most statements bind no text.
    private var base: UnsafeMutablePointer<CChar>?
    private var capacity = 0
    /// Whether the statement holds pointers into the buffer.
    var isBound = false

    deinit { base?.deallocate() }

    /// The start of a free run of at least `count` bytes (never null, also when `count` is 0).
    func reserve(_ count: Int) -> UnsafeMutablePointer<CChar> {
        if let base, count <= capacity { return base }
        base?.deallocate()
        capacity = max(count, 256, capacity * 2)
        let fresh = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        base = fresh
        return fresh
    }

    /// Copies the UTF-8 of `text` to `destination`; returns the end of the copy.
    static func copy(_ text: String, to destination: UnsafeMutablePointer<CChar>) -> UnsafeMutablePointer<CChar> {
        var text = text
        return text.withUTF8 { utf8 in
            guard let start = utf8.baseAddress else { return destination }
            UnsafeMutableRawPointer(destination).copyMemory(from: start, byteCount: utf8.count)
            return destination + utf8.count
        }
    }

    /// Copies `data` to `destination`; returns the end of the copy.
    static func copy(_ data: Data, to destination: UnsafeMutablePointer<CChar>) -> UnsafeMutablePointer<CChar> {
        data.withUnsafeBytes { bytes in
            guard let start = bytes.baseAddress else { return destination }
            UnsafeMutableRawPointer(destination).copyMemory(from: start, byteCount: bytes.count)
            return destination + bytes.count
        }
    }
}
