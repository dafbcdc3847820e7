/// An error reading or writing a document: unreadable input, invalid UTF-8 or invalid JSON, an
/// unwritable output, or a value that has no document form.
public struct DocumentError: Error, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: Sendable, Equatable {
        /// The input does not follow the JSON grammar.
        case syntax
        /// The input is not valid UTF-8.
        case invalidUTF8
        /// A string has an unescaped control character, a bad escape or a lone surrogate.
        case invalidString
        /// A number literal is malformed.
        case invalidNumber
        /// Containers are nested deeper than the reader (or the writer) allows.
        case depthLimit
        /// The input ends in the middle of a value.
        case unexpectedEnd
        /// The file cannot be opened, read or written.
        case io
        /// A value cannot be written as a document that reads back as the same value: it does not
        /// fit its property's type, names no property, is a stored-object reference, is NaN, has a
        /// map key the mapper refuses, or is text the format cannot carry.
        case unwritableValue
        /// A document was written after the writer (or its output) was finished.
        case outputClosed
    }

    /// What kind of problem this is.
    public var code: Code
    /// What is wrong, in one line.
    public var message: String
    /// The file's path as given, or a name such as `<input>`.
    public var file: String
    /// The position of the offending byte (the end of input for an unexpected end), when known.
    public var position: TextPosition?
    /// The error that caused this one, if any; not compared by `==`.
    public var underlying: (any Error)?
    /// The document the error is in, as read (a value it cannot hold kept as its text), when the
    /// error is that document's alone and the reader reads on after it; not compared by `==`.
    public var document: DocumentNode?

    /// Makes a document error.
    public init(_ code: Code, _ message: String, file: String, position: TextPosition? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.position = position
        self.underlying = underlying
    }

    /// `file:line:column: error: message`, or `file: error: message` without a position.
    public var description: String {
        if let position { return "\(file):\(position.line):\(position.column): error: \(message)" }
        return "\(file): error: \(message)"
    }

    /// Compares everything but `underlying`.
    public static func == (lhs: DocumentError, rhs: DocumentError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.file == rhs.file && lhs.position == rhs.position
    }
}
