import Foundation

/// A parsed predicate, before it is checked against a schema.
///
/// `and` and `or` hold flat lists, so that long chains of conditions do not nest (nor recurse)
/// deeper than the parentheses and `NOT`s written.
indirect enum ParsedPredicate: Equatable, Sendable {
    case constant(Bool)
    case and([ParsedPredicate])
    case or([ParsedPredicate])
    case not(ParsedPredicate)
    case comparison(PredicateComparison)
}

/// `[ANY|ALL|NONE] left op[modifiers] right`, where each side is a key path, a value, a list of
/// values, an aggregate or a `SUBQUERY` count. A value written first is moved right (`3 < age` is
/// `age > 3`), so the left side is a value only when both are.
struct PredicateComparison: Equatable, Sendable {
    var quantifier: PredicateQuantifier?
    var left: PredicateExpression
    var op: ComparisonOperator
    /// `[c]`, `[d]` or `[cd]`.
    var options: StringOptions
    var right: PredicateExpression
    /// Where the operator is written.
    var column: Int
    /// For a list of values on the right (`age > ALL {1, 2}`): whether the comparison must hold for
    /// any, every or none of them; `nil` for the list of `IN` and `BETWEEN`.
    var listQuantifier: PredicateQuantifier.Kind? = nil

    /// `[c]`: case-insensitive string comparison.
    var caseInsensitive: Bool { options.caseInsensitive }
}

/// The modifiers of a string comparison.
struct StringOptions: Equatable, Sendable {
    /// `[c]`: letters compare without case.
    var caseInsensitive = false
    /// `[d]`: letters compare without diacritics (`é` is `e`).
    var diacriticInsensitive = false

    var isEmpty: Bool { !caseInsensitive && !diacriticInsensitive }

    /// `text` as these options compare it: lowercased for `[c]`, without diacritics for `[d]`. The
    /// SQL functions of `[c]` and `[d]` fold stored text with it, and literals are folded with it.
    func fold(_ text: String) -> String {
        // ASCII has no diacritics to drop.
        if !text.utf8.contains(where: { $0 >= 0x80 }) { return caseInsensitive ? text.lowercased() : text }
        let bare = diacriticInsensitive ? text.folding(options: .diacriticInsensitive, locale: nil) : text
        return caseInsensitive ? bare.lowercased() : bare
    }

    /// `[c]`, `[d]` or `[cd]`, for messages.
    var spelling: String {
        "[" + (caseInsensitive ? "c" : "") + (diacriticInsensitive ? "d" : "") + "]"
    }
}

/// One side of a comparison.
indirect enum PredicateExpression: Equatable, Sendable {
    case keyPath(PredicateKeyPath)
    case literal(PredicateLiteral)
    /// `{a, b, …}`: for `IN` and `BETWEEN`, after any operator (`== ANY {1, 2}`), or on the left.
    case list([PredicateLiteral], column: Int)
    /// `SUBQUERY(collection, $x, predicate).@count`.
    case subquery(PredicateSubquery)
    /// `left + right`, `-`, `*` or `/`, on numbers.
    case arithmetic(ArithmeticOperator, PredicateExpression, PredicateExpression, column: Int)

    /// Where the expression starts.
    var column: Int {
        switch self {
        case .keyPath(let path): path.column
        case .literal(let literal): literal.column
        case .list(_, let column): column
        case .subquery(let subquery): subquery.column
        case .arithmetic(_, let left, _, _): left.column
        }
    }

    /// The key path, when this side is one.
    var keyPath: PredicateKeyPath? {
        if case .keyPath(let path) = self { return path }
        return nil
    }

    /// Whether this side is a constant (a value or a list of values).
    var isConstant: Bool {
        switch self {
        case .literal, .list: true
        case .keyPath, .subquery: false
        case .arithmetic(_, let left, let right, _): left.isConstant && right.isConstant
        }
    }
}

/// `+`, `-`, `*` or `/` between two numbers.
enum ArithmeticOperator: String, Equatable, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/"
}

/// `SUBQUERY(collection, $x, predicate).@count`: how many objects of a collection match a
/// predicate in which `$x` names each of them.
struct PredicateSubquery: Equatable, Sendable {
    var collection: PredicateKeyPath
    /// The variable's name, without the `$`.
    var variable: String
    var predicate: ParsedPredicate
    /// Where `SUBQUERY` is written.
    var column: Int
}

/// `ANY`/`SOME`, `ALL` or `NONE` before a key path through a collection.
struct PredicateQuantifier: Equatable, Sendable {
    enum Kind: Equatable { case any, all, none }

    var kind: Kind
    /// The word as written (`ANY`, `some`, …), or `IN` for `value IN keyPath`; for messages.
    var word: String
    var column: Int
}

/// A dotted path of property names, possibly with `@` operations (`@count`, `@sum`, `@links`,
/// `@type`, …) and subscripts (`['key']`).
struct PredicateKeyPath: Equatable, Sendable {
    struct Component: Equatable {
        enum Kind: Equatable {
            /// A property name, or the first name of a path.
            case property
            /// `@name`, stored without the `@`.
            case operation
            /// `['key']`: a map's entry, the key in `name`.
            case key
            /// `[0]`, `[FIRST]`, `[LAST]`, `[SIZE]` or `[*]` after a list: the position (or the
            /// word, upper case) in `name`.
            case index
            /// `$x` at the start of a path, inside a SUBQUERY.
            case variable
        }

        var name: String
        var kind: Kind
        var column: Int

        init(name: String, kind: Kind, column: Int) {
            self.name = name
            self.kind = kind
            self.column = column
        }

        init(name: String, isAggregate: Bool, column: Int) {
            self.init(name: name, kind: isAggregate ? .operation : .property, column: column)
        }

        var isAggregate: Bool { kind == .operation }

        /// The component as written (`name`, `@count`, `['key']`, `$x`).
        var text: String {
            switch kind {
            case .property: name
            case .operation: "@" + name
            case .key: "[" + PredicateLiteral.Value.quoted(name) + "]"
            case .index: "[" + name + "]"
            case .variable: "$" + name
            }
        }
    }

    var components: [Component]

    var column: Int { components.first?.column ?? 1 }

    /// The path as written, with `@` before operations.
    var text: String {
        var text = ""
        for (index, component) in components.enumerated() {
            if index > 0 && component.kind != .key && component.kind != .index { text += "." }
            text += component.text
        }
        return text
    }
}

enum ComparisonOperator: Equatable, Sendable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    case beginsWith, contains, endsWith, like
    case `in`, between

    /// The operator as a predicate spells it, for messages.
    var spelling: String {
        switch self {
        case .equal: "=="
        case .notEqual: "!="
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        case .beginsWith: "BEGINSWITH"
        case .contains: "CONTAINS"
        case .endsWith: "ENDSWITH"
        case .like: "LIKE"
        case .in: "IN"
        case .between: "BETWEEN"
        }
    }

    /// The operator with its sides swapped (`3 < age` is `age > 3`); `nil` for operators that cannot swap.
    var swapped: ComparisonOperator? {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: nil
        }
    }

    var isOrdering: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between: true
        default: false
        }
    }

    var isStringOperator: Bool {
        switch self {
        case .beginsWith, .contains, .endsWith, .like: true
        default: false
        }
    }
}

/// A constant written in a predicate.
struct PredicateLiteral: Equatable, Sendable {
    enum Value: Equatable {
        case null
        case bool(Bool)
        /// A number as written; converted for the property it is compared with.
        case number(String)
        case string(String)
        /// Milliseconds since 1970.
        case date(Int64)
        case objectId(ObjectId)
        case uuid(UUID)
    }

    var value: Value
    var column: Int

    /// The literal as error messages show it: its kind and value (`string "three"`, `int 3`).
    var described: String {
        switch value {
        case .null: "nil"
        case .bool(let flag): "bool \(flag)"
        case .number(let text): (Int64(text) != nil ? "int " : "number ") + text
        case .string(let text): "string \(Value.quoted(text))"
        case .date(let millis): "date \(DateFormatting.iso8601(milliseconds: millis))"
        case .objectId(let id): "objectId oid(\(id.hexString))"
        case .uuid(let id): "uuid uuid(\(id.uuidString.lowercased()))"
        }
    }
}

extension PredicateLiteral.Value {
    /// `text` in double quotes, with quotes and backslashes escaped.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
