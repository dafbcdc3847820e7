import GRDB
import GRDBSQLite

extension KuraError {
    /// The error for a failure GRDB reported, with SQLite's message, result code and statement
    /// (`sql` when GRDB names none).
    static func database(_ error: DatabaseError, sql: String?) -> KuraError {
        var failure = KuraError.store(
            .database, "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")", sql: error.sql ?? sql, underlying: error)
        failure.engineCode = error.extendedResultCode.rawValue
        return failure
    }

    /// The error for SQLite result `code` on `connection` while running `sql`, with SQLite's message.
    static func sqlite(_ code: CInt, on connection: OpaquePointer?, sql: String) -> KuraError {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "unknown"
        // Extended result codes carry the primary code in their low byte, which is what GRDB reports.
        var failure = KuraError.store(.database, "SQLite error \(code & 0xff): \(message)", sql: sql)
        failure.engineCode = code
        return failure
    }
}
