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

/// `[ANY|ALL|NONE] keyPath op[modifier] value`.
struct PredicateComparison: Equatable, Sendable {
    var quantifier: PredicateQuantifier?
    var keyPath: PredicateKeyPath
    var op: ComparisonOperator
    /// `[c]`: case-insensitive string comparison.
    var caseInsensitive: Bool
    /// The literal (one, or a list for `IN` and `BETWEEN`).
    var operand: PredicateOperand
    /// Where the operator is written.
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

/// A dotted path of property names, possibly ending in an aggregate such as `@count`.
struct PredicateKeyPath: Equatable, Sendable {
    struct Component: Equatable {
        var name: String
        var isAggregate: Bool
        var column: Int
    }

    var components: [Component]

    var column: Int { components.first?.column ?? 1 }

    /// The path as written, with `@` before aggregates.
    var text: String {
        components.map { ($0.isAggregate ? "@" : "") + $0.name }.joined(separator: ".")
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

/// The right-hand side of a comparison.
enum PredicateOperand: Equatable, Sendable {
    case literal(PredicateLiteral)
    /// `{a, b, …}` for `IN` and `BETWEEN`.
    case list([PredicateLiteral], column: Int)
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
