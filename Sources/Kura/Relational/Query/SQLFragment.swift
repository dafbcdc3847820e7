
/// SQL text with its positional arguments, kept together so that arguments stay in the order of
/// their placeholders however fragments are combined, and with estimates of how deep SQLite will
/// find the expression, which it can hold only so deep.
struct SQLFragment {
    var sql: String
    var arguments: [StoredCell]
    /// An estimate of how much of SQLite's parser stack the fragment needs: SQLite 3.40 parses with a
    /// fixed stack of 100 entries, so deeply nested SQL fails with "parser stack overflow".
    var parserDepth: Int
    /// An estimate of the height of the expression tree SQLite builds from the fragment, subqueries
    /// included: SQLite refuses a tree higher than `SQLiteLimits.expressionDepth`.
    var height: Int
    /// Whether the fragment joins several conditions with AND or OR (`SQLFragment.joined`).
    var isJunction = false
    /// The column, in the predicate, of the comparison on the fragment's deepest path, when known:
    /// where a predicate too deep for SQLite is refused.
    var column: Int?

    init(_ sql: String, _ arguments: [StoredCell] = [], parserDepth: Int = 0, height: Int = 1) {
        self.sql = sql
        self.arguments = arguments
        self.parserDepth = parserDepth
        self.height = height
    }

    /// Appends text, in place (a predicate's SQL is built from many pieces).
    mutating func append(_ text: String) {
        sql += text
    }

    /// Appends another fragment's text and arguments; the estimates become the larger of the two.
    mutating func append(_ fragment: SQLFragment) {
        sql += fragment.sql
        arguments += fragment.arguments
        if fragment.parserDepth > parserDepth || column == nil { column = fragment.column ?? column }
        parserDepth = max(parserDepth, fragment.parserDepth)
        height = max(height, fragment.height)
    }

    static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        var result = lhs
        result.append(rhs)
        return result
    }

    static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
        var result = lhs
        result.append(rhs)
        return result
    }

    static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
        var result = rhs
        result.sql = lhs + rhs.sql
        return result
    }
}
