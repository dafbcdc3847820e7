import Hummingbird
import Kura

/// A request's query parameters, read with 400 problems that name the parameter.
struct QueryParameters {
    private let values: [String: String]

    init(_ request: Request) { self.init(query: request.uri.query ?? "") }

    /// The parameters of a query string read as HTML forms write one
    /// (`application/x-www-form-urlencoded`): a `+` is a space, as browsers, `URLSearchParams`,
    /// Python's `requests` and `curl --data-urlencode -G` send it, and a plus sign comes as `%2B`.
    /// Names are decoded too; of a name given twice, the last value counts.
    init(query: String) {
        var values: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            values[Self.decode(parts.first ?? "")] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
        self.values = values
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The parameter's text, or `nil` when it is absent.
    func text(_ name: String) -> String? { values[name] }

    /// The parameter as an integer within `range`, or `nil` when it is absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(Problem) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            let upper = range.upperBound == Int.max ? "" : " to \(range.upperBound)"
            throw Problem.badParameter("\(name) '\(MessageText.shown(text))' is not a whole number from \(range.lowerBound)\(upper)")
        }
        return number
    }

    /// `args`: the values of the `where` predicate's `$0`, `$1` … as a JSON array; none when absent.
    func arguments() throws(KuraError) -> [Value] {
        guard let text = values["args"] else { return [] }
        return try QueryArgumentList.values(json: text)
    }

    /// The parameter as `true` or `false`; absent is false.
    func flag(_ name: String) throws(Problem) -> Bool {
        switch values[name] {
        case nil, "false": false
        case "true", "": true
        case let other?: throw Problem.badParameter("\(name) '\(MessageText.shown(other))' is not true or false")
        }
    }
}
