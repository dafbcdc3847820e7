import Kura

/// Small JSON text helpers for the server's own bodies, whose member order is fixed so that
/// clients (and tests) see the same bytes every time.
enum JSONText {
    /// `text` as a JSON string literal, quotes included, escaped as the library's writer does.
    static func string(_ text: String) -> String { JSONString.literal(text) }

    /// A JSON object of `members`, in the order given; values are JSON text already.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A JSON array of elements that are JSON text already.
    static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }
}
