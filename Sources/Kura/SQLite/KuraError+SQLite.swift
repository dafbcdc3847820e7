import GRDB
import GRDBSQLite

extension KuraError {
    /// Runs `body`, turning the engine's errors into `KuraError`s that carry their SQL (`sql` when
    /// the engine names none); a `KuraError` passes as it is.
    @discardableResult
    static func catchingEngineErrors<T>(sql: String?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as KuraError {
            throw error
        } catch let error as DatabaseError {
            throw KuraError.database(error, sql: sql)
        }
    }

    /// The text of `error` for a message: SQLite's own message for an engine error.
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error)" }
        return "\(error)"
    }

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
