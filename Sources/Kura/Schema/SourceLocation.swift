/// A position in an input file, printed as `file:line:col`.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as given, or a name such as `<input>`.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// Makes a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}
