/// What PostgreSQL's SQL can hold, as the query compiler keeps within it: its documented limits
/// where it has one, and bounds of Kura's own where it has none.
enum PostgresLimits {
    /// The limits as the query compiler reads them.
    static let query = QueryLimits(
        engine: "PostgreSQL",
        // Columns in one table (a result set holds 1664).
        columns: PostgresNames.maxColumns,
        // The protocol counts a statement's parameters in 16 bits, which the driver writes signed.
        variables: 32767,
        // The server refuses a message over 1 GB.
        sqlLength: (1 << 30) - 1,
        // No fixed height: the server's stack (`max_stack_depth`, 2 MB by default) bounds it, which
        // this height stays well within.
        expressionDepth: 1000,
        // No fixed count; beyond this the planner's search (`geqo`) makes such joins slow to plan.
        tablesPerSelect: 100,
        dialect: PostgresQueryDialect())
}
