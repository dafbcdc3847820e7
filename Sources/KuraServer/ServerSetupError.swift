/// A reason the server cannot start: a bad setting, or a realm that is missing or does not open.
public struct ServerSetupError: Error, Equatable, CustomStringConvertible {
    /// What kind of reason this is.
    public enum Code: Sendable, Equatable {
        /// A setting of `server:` or the command line that cannot be used.
        case invalidSetting
        /// A served realm's file does not exist.
        case realmMissing
        /// A served realm's file exists but does not open as a realm.
        case realmUnopenable
    }

    /// What kind of reason this is.
    public var code: Code
    /// What is wrong, naming the setting or file.
    public var message: String

    /// Makes an `invalidSetting` error with `message`.
    public init(_ message: String) {
        self.init(.invalidSetting, message)
    }

    /// Makes an error of `code` with `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "error: \(message)" }
}
