/// Predicate text with values held apart from it: a typed query's text before its values are
/// numbered `$0`, `$1` … in the order they appear.
struct PredicateText: Sendable {
    enum Piece: Sendable {
        case text(String)
        case value(Value)
    }

    var pieces: [Piece]

    init(_ text: String) {
        pieces = [.text(text)]
    }

    init(value: Value) {
        pieces = [.value(value)]
    }

    init(pieces: [Piece]) {
        self.pieces = pieces
    }

    /// The pieces one after another, with nothing between them.
    static func + (lhs: PredicateText, rhs: PredicateText) -> PredicateText {
        PredicateText(pieces: lhs.pieces + rhs.pieces)
    }

    static func + (lhs: PredicateText, rhs: String) -> PredicateText {
        PredicateText(pieces: lhs.pieces + [.text(rhs)])
    }

    static func + (lhs: String, rhs: PredicateText) -> PredicateText {
        PredicateText(pieces: [.text(lhs)] + rhs.pieces)
    }

    /// The text with each value replaced by its argument's placeholder, and the arguments in order.
    func rendered() -> QueryPredicate {
        var text = ""
        var arguments: [Value] = []
        for piece in pieces {
            switch piece {
            case .text(let part): text += part
            case .value(let value):
                text += "$\(arguments.count)"
                arguments.append(value)
            }
        }
        return QueryPredicate(text: text, arguments: arguments)
    }
}

/// A predicate in Kura's query language with the values of its `$0`, `$1` … placeholders: what a
/// typed query becomes, and what `Results.filter(_:arguments:)` takes.
public struct QueryPredicate: Sendable, Equatable {
    /// The predicate text, such as `age > $0 AND dogs.@count > $1`.
    public let text: String
    /// The placeholders' values, `$0` first.
    public let arguments: [Value]

    /// Makes a predicate from its text and arguments.
    public init(text: String, arguments: [Value] = []) {
        self.text = text
        self.arguments = arguments
    }
}
