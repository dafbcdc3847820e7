/// A document that does not fit the schema: where, which property path, what was expected and found.
public struct MappingError: Error, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: Sendable, Equatable {
        case typeMismatch
        case outOfRange
        case missingProperty
        case unknownProperty
        case duplicateKey
        case tooManyValues
        case invalidMapKey
        case invalidValue
        case nestingTooDeep
        /// The YAML aliases of a document expand to more values than `MappingOptions.maxAliasExpansion`.
        case aliasExpansion
        /// A `$ref` or primary key names no document of the input, or one of another type.
        case unresolvedReference
        /// Two documents of one input carry the same `"$id"`.
        case duplicateReferenceId
    }

    /// What kind of problem this is.
    public var code: Code
    /// The input file's name.
    public var file: String
    /// Where the offending value starts.
    public var position: TextPosition
    /// The path of the value in the document, such as `$[12].dogs[1].age`.
    public var path: String
    /// What was expected and found, such as `expected int, found string "three"`.
    public var message: String

    /// Makes a mapping error.
    public init(_ code: Code, file: String, position: TextPosition, path: String, _ message: String) {
        self.code = code
        self.file = file
        self.position = position
        self.path = path
        self.message = message
    }

    /// `file:line:col: error: path: message`.
    public var description: String {
        "\(file):\(position.line):\(position.column): error: \(path): \(message)"
    }
}

/// All the errors of one document (up to a limit), in document order.
public struct MappingErrors: Error, Equatable, CustomStringConvertible {
    /// The errors found.
    public var errors: [MappingError]
    /// Whether more errors were found than the limit kept.
    public var truncated: Bool

    /// Makes a list of errors.
    public init(errors: [MappingError], truncated: Bool = false) {
        self.errors = errors
        self.truncated = truncated
    }

    /// One line per error.
    public var description: String {
        errors.map(\.description).joined(separator: "\n") + (truncated ? "\n(more errors not shown)" : "")
    }
}
