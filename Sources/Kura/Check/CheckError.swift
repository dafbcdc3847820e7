/// Why a file could not be checked at all. Problems inside a realm are not errors: they are the
/// findings of a `CheckReport`.
public struct CheckError: Error, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: Sendable, Equatable {
        /// No file at the path.
        case fileMissing
        /// The file is not an SQLite database, or is one without Kura's metadata.
        case notARealm
        /// The file could not be opened or read (permissions, I/O).
        case unreadable
    }

    /// What kind of problem this is.
    public var code: Code
    /// What failed, in one line.
    public var message: String

    /// Makes a check error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `error: message`, as the other errors of Kura print.
    public var description: String { "error: \(message)" }
}
