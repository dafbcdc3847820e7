/// One error of an invalid document in a problem body: where it is and the line the command line prints.
public struct ProblemEntry: Sendable, Equatable {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int
    /// The value's path in the document, such as `$[12].dogs[1].age`; empty when the error is in the text itself.
    public var path: String
    /// The text `kura import` prints for this error, with `body` as the file name.
    public var message: String

    /// Makes an entry.
    public init(line: Int, column: Int, path: String, message: String) {
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    var json: String {
        JSONText.object([
            ("line", String(line)), ("column", String(column)),
            ("path", JSONText.string(path)), ("message", JSONText.string(message)),
        ])
    }
}
