import Foundation

/// A type of value a typed query compares with `==`, `!=` and `in`: a scalar Kura stores, a
/// mixed `Value`, or an optional of one.
public protocol QueryValue: QueryArgument {}

/// A value typed queries order with `<`, `<=`, `>`, `>=` and aggregate with `sum`, `avg`, `min`
/// and `max`: numbers, dates, decimals, mixed values, and optionals of them.
public protocol QueryComparable: QueryValue {}

/// Text a typed query matches with `contains`, `starts(with:)`, `ends(with:)`, `like` and
/// `equals(_:options:)`: `String` and `String?`.
public protocol QueryString: QueryValue {}

extension String: QueryString {}
extension Bool: QueryValue {}
extension UUID: QueryValue {}
extension ObjectId: QueryValue {}
extension Int: QueryComparable {}
extension Int32: QueryComparable {}
extension Int64: QueryComparable {}
extension Double: QueryComparable {}
extension Float: QueryComparable {}
extension Date: QueryComparable {}
extension Decimal128: QueryComparable {}
extension Value: QueryComparable {}
extension Optional: QueryValue where Wrapped: QueryValue {}
extension Optional: QueryComparable where Wrapped: QueryComparable {}
extension Optional: QueryString where Wrapped: QueryString {}

/// How `contains`, `starts(with:)`, `ends(with:)` and `equals(_:options:)` compare text: `[c]`
/// and `[d]` in the query language.
public struct StringComparisonOptions: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Upper and lower case compare equal (`[c]`).
    public static let caseInsensitive = StringComparisonOptions(rawValue: 1)
    /// Letters with and without diacritics compare equal, `é` and `e` (`[d]`).
    public static let diacriticInsensitive = StringComparisonOptions(rawValue: 2)

    /// The modifier after the operator: `[c]`, `[d]`, `[cd]` or nothing.
    var modifier: String {
        let letters = (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}
