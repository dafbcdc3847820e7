/// An error moving documents in or out of a realm, located in the input where it has a place there.
public struct TransferError: Error, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: Sendable, Equatable {
        /// A document does not fit the schema or the realm (wrong type, duplicate key, missing link…).
        case badDocument
        /// The input or output cannot be read or written, or is not valid JSON/YAML.
        case badInput
        /// The request does not fit the realm (unknown type, an embedded type at the top level…).
        case usage
        /// The destination realm's schema cannot hold what a copy would bring.
        case schemaMismatch
    }

    /// What kind of problem this is.
    public var code: Code
    /// What failed, in one line, starting with the document path when there is one.
    public var message: String
    /// The input's name.
    public var file: String?
    /// Where the document starts, when known.
    public var position: TextPosition?
    /// The error that caused this one; not compared by `==`.
    public var underlying: (any Error)?

    /// Makes a transfer error.
    public init(_ code: Code, _ message: String, file: String? = nil, position: TextPosition? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.position = position
        self.underlying = underlying
    }

    /// `file:line:col: error: message`, with as much of the location as is known.
    public var description: String {
        switch (file, position) {
        case (let file?, let position?): "\(file):\(position.line):\(position.column): error: \(message)"
        case (let file?, nil): "\(file): error: \(message)"
        default: "error: \(message)"
        }
    }

    /// Compares everything but `underlying`.
    public static func == (lhs: TransferError, rhs: TransferError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.file == rhs.file && lhs.position == rhs.position
    }
}
