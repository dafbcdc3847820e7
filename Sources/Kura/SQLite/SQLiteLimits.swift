import GRDBSQLite

/// The limits of the SQLite library Kura runs on that a schema or a query can reach, read once
/// from the library itself (builds differ: Debian's binds 250,000 values in one statement where
/// SQLite's default is 32,766), so that Kura refuses what SQLite would refuse, with its own message,
/// before any statement runs.
enum SQLiteLimits {
    /// Columns in one table, and terms in one result set, `ORDER BY` or `INSERT` column list.
    static let columns = limits.columns
    /// Values bound to one statement.
    static let variables = limits.variables
    /// Bytes of one statement's text.
    static let sqlLength = limits.sqlLength
    /// Height of one expression tree (its nesting of operators, subqueries included).
    static let expressionDepth = limits.expressionDepth
    /// `SELECT`s joined by one `UNION ALL`.
    static let compoundSelect = limits.compoundSelect
    /// Tables in one `SELECT`, joins included: the width of SQLite's table bitmasks, fixed at build.
    static let tablesPerSelect = 64

    /// The limits as the query compiler reads them.
    static let query = QueryLimits(
        engine: "SQLite", columns: columns, variables: variables, sqlLength: sqlLength, expressionDepth: expressionDepth,
        tablesPerSelect: tablesPerSelect, dialect: SQLiteQueryDialect())

    private static let limits = read()

    /// Reads the limits from an in-memory connection; SQLite's documented defaults if none opens.
    private static func read() -> (columns: Int, variables: Int, sqlLength: Int, expressionDepth: Int, compoundSelect: Int) {
        var defaults = (columns: 2000, variables: 32766, sqlLength: 1_000_000_000, expressionDepth: 1000, compoundSelect: 500)
        var connection: OpaquePointer?
        defer { sqlite3_close(connection) }
        guard sqlite3_open_v2(":memory:", &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let connection else {
            return defaults
        }
        func limit(_ id: Int32) -> Int? {
            let value = Int(sqlite3_limit(connection, id, -1))
            return value > 0 ? value : nil
        }
        defaults.columns = limit(SQLITE_LIMIT_COLUMN) ?? defaults.columns
        defaults.variables = limit(SQLITE_LIMIT_VARIABLE_NUMBER) ?? defaults.variables
        defaults.sqlLength = limit(SQLITE_LIMIT_SQL_LENGTH) ?? defaults.sqlLength
        defaults.expressionDepth = limit(SQLITE_LIMIT_EXPR_DEPTH) ?? defaults.expressionDepth
        defaults.compoundSelect = limit(SQLITE_LIMIT_COMPOUND_SELECT) ?? defaults.compoundSelect
        return defaults
    }
}
