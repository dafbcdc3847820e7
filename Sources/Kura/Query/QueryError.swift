/// A query that cannot run: a predicate or sort key that does not parse or does not fit the schema,
/// a bad limit, or a type that cannot be queried. Found before any SQL runs.
public struct QueryError: Error, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: Sendable, Equatable {
        /// The text is not a predicate or sort key (unexpected token, unterminated string…).
        case syntax
        /// The realm has no such type.
        case unknownType
        /// The type cannot be queried at the top level (embedded or asymmetric).
        case notQueryable
        /// A key path names a property the type does not have.
        case unknownProperty
        /// A key path goes on where it cannot (past a scalar, `@count` on a scalar, a list in a sort key…).
        case invalidKeyPath
        /// A literal does not fit the property it is compared with.
        case typeMismatch
        /// The operator or modifier does not apply to the property's type.
        case unsupportedOperator
        /// The predicate nests or grows beyond what Kura compiles.
        case tooComplex
        /// The limit is negative.
        case invalidLimit
        /// A page cursor that no query wrote, or one made for another sort order.
        case invalidCursor
        /// The arguments do not pair up with the `%@` and `%K` placeholders, or one does not fit its placeholder.
        case argumentMismatch
    }

    /// Which text an error is about.
    public enum Source: String, Sendable, Equatable {
        case `where`
        case sort
    }

    /// What kind of problem this is.
    public var code: Code
    /// What is wrong, in one line.
    public var message: String
    /// The text the error is in, when it is in one.
    public var source: Source?
    /// The column in that text, from 1 (in Unicode scalars), when known.
    public var column: Int?

    /// Makes a query error.
    public init(_ code: Code, _ message: String, in source: Source? = nil, column: Int? = nil) {
        self.code = code
        self.message = message
        self.source = source
        self.column = column
    }

    /// `where: column 7: error: message` (or `sort: …`), or `error: message` when the error has no
    /// place in a text. The column counts Unicode scalars from 1.
    public var description: String {
        switch (source, column) {
        case (let source?, let column?): "\(source.rawValue): column \(column): error: \(message)"
        case (let source?, nil): "\(source.rawValue): error: \(message)"
        default: "error: \(message)"
        }
    }
}

extension QueryError {
    /// The error placed at `column` of `source` when it has no place of its own (an error of the
    /// query as a whole, such as too many tables, found while compiling one part of it).
    func placed(in source: Source, column: Int) -> QueryError {
        guard self.column == nil else { return self }
        return QueryError(code, message, in: source, column: column)
    }
}
