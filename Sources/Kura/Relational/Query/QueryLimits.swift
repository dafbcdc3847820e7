/// What one engine's SQL can hold, which the query compiler keeps within so that a query too big
/// for the engine is refused at its column, with Kura's message, before any statement runs.
struct QueryLimits: Sendable {
    /// The engine's name, as messages give it.
    var engine: String
    /// Columns in one table, and terms in one result set or `ORDER BY`.
    var columns: Int
    /// Values bound to one statement.
    var variables: Int
    /// Bytes of one statement's text.
    var sqlLength: Int
    /// Height of one expression tree (its nesting of operators, subqueries included).
    var expressionDepth: Int
    /// Tables in one `SELECT`, joins included.
    var tablesPerSelect: Int
    /// How the engine spells what differs between engines' SQL.
    var dialect: any QueryDialect
}
