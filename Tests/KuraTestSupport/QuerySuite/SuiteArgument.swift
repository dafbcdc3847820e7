import Foundation

/// A value bound to a `$0`, `$1` … of a case's predicate, written as JSON for the service's `args`.
package indirect enum SuiteArgument: Sendable {
    case null
    case int(Int)
    case double(Double)
    case string(String)
    /// Milliseconds since 1970, written `{"$date": "…"}`.
    case date(milliseconds: Int64)
    case list([SuiteArgument])

    package var json: String {
        switch self {
        case .null: "null"
        case .int(let number): "\(number)"
        case .double(let number): "\(number)"
        case .string(let text): "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .date(let milliseconds): #"{"$date": "\#(QueryDates.text(milliseconds))"}"#
        case .list(let items): Self.json(items)
        }
    }

    package static func json(_ arguments: [SuiteArgument]) -> String {
        "[" + arguments.map(\.json).joined(separator: ", ") + "]"
    }
}
