/// An error in a schema: a file that cannot be read or parsed, or a definition that is not valid.
public struct SchemaError: Error, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: Sendable, Equatable {
        case unreadableFile
        case syntax
        case invalidStructure
        case invalidName
        case duplicateName
        case invalidType
        case unknownType
        case invalidPrimaryKey
        case invalidDefault
        case invalidAttribute
        case invalidLinkingObjects
        case invalidEmbedding
        /// A type needs more columns than SQLite holds in one table.
        case tooManyColumns
    }

    /// What kind of problem this is.
    public var code: Code
    /// What is wrong, in one line.
    public var message: String
    /// Where in the schema file, when known.
    public var location: SourceLocation?
    /// The error that caused this one, if any.
    public var underlying: (any Error)?

    /// Makes a schema error.
    public init(_ code: Code, _ message: String, at location: SourceLocation? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.underlying = underlying
    }

    /// `file:line:col: error: message`, or `error: message` without a location.
    public var description: String {
        if let location { return "\(location): error: \(message)" }
        return "error: \(message)"
    }

    public static func == (lhs: SchemaError, rhs: SchemaError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.location == rhs.location
    }
}
