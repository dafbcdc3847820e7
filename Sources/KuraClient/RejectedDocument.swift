/// A document a served import set aside under `onError` `skip`: where it starts in what was sent,
/// and why, as `kura import` says it.
public struct RejectedDocument: Sendable, Equatable {
    /// The line the document starts on, from 1.
    public let line: Int
    /// The column the document starts at, from 1.
    public let column: Int
    /// Its errors, one line each.
    public let errors: [String]

    /// A rejected document starting at `line` and `column`.
    public init(line: Int, column: Int, errors: [String]) {
        self.line = line
        self.column = column
        self.errors = errors
    }
}
