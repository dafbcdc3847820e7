import Hummingbird

/// A request's query parameters, read with 400 problems that name the parameter.
struct QueryParameters {
    private let values: [String: String]

    init(_ request: Request) {
        var values: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { values[String(key)] = String(value) }
        self.values = values
    }

    /// The parameter's text, or `nil` when it is absent.
    func text(_ name: String) -> String? { values[name] }

    /// The parameter as an integer within `range`, or `nil` when it is absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(Problem) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            let upper = range.upperBound == Int.max ? "" : " to \(range.upperBound)"
            throw Problem.badParameter("\(name) '\(text)' is not a whole number from \(range.lowerBound)\(upper)")
        }
        return number
    }

    /// The parameter as `true` or `false`; absent is false.
    func flag(_ name: String) throws(Problem) -> Bool {
        switch values[name] {
        case nil, "false": false
        case "true", "": true
        case let other?: throw Problem.badParameter("\(name) '\(other)' is not true or false")
        }
    }
}
