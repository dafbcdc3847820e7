/// A place in a text input: line and column as an editor shows them, plus the byte offset when the
/// reader counts it.
public struct TextPosition: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1; only line feeds (U+000A) start a new line.
    public var line: Int
    /// The column, from 1, counted in Unicode scalars so it matches what editors show.
    public var column: Int
    /// The byte offset from the start of the input (a skipped byte order mark counts); `nil` where
    /// the reader gives only lines and columns (a schema file, a query's text).
    public var offset: Int?

    /// Makes a position.
    public init(line: Int, column: Int, offset: Int? = nil) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}
