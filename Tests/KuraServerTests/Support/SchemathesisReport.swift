import Foundation

/// What a schemathesis run reported in its JUnit XML file: one test case per operation it tested
/// (named `METHOD /path`), with a failure or an error element for each problem it found.
struct SchemathesisReport {
    /// The operations that ran, with neither a failure nor a skip.
    private(set) var passed: Set<String> = []
    /// Each failed operation with schemathesis's text of what went wrong.
    private(set) var failures: [String] = []
    /// The operations that failed.
    private(set) var failed: Set<String> = []
    /// The operations schemathesis skipped, with why.
    private(set) var skipped: [String] = []

    /// Every operation tested, whatever its outcome.
    var operationsTested: Set<String> { passed.union(failed) }

    init(junitPath path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var rest = text[...]
        while let open = rest.range(of: "<testcase ") {
            let head = rest[open.upperBound...]
            guard let headEnd = head.firstIndex(of: ">") else { break }
            let attributes = head[..<headEnd]
            let name = Self.attribute("name", in: attributes) ?? "?"
            let selfClosing = attributes.hasSuffix("/")
            let bodyStart = head.index(after: headEnd)
            let bodyEnd = selfClosing ? bodyStart : (head[bodyStart...].range(of: "</testcase>")?.lowerBound ?? head.endIndex)
            let body = head[bodyStart..<bodyEnd]
            if body.contains("<failure") || body.contains("<error") {
                failed.insert(name)
                failures.append("\(name): \(Self.unescaped(String(body)))")
            } else if body.contains("<skipped") {
                skipped.append("\(name): \(Self.unescaped(String(body)))")
            } else {
                passed.insert(name)
            }
            rest = head[bodyEnd...]
        }
    }

    private static func attribute(_ name: String, in attributes: Substring) -> String? {
        guard let start = attributes.range(of: "\(name)=\"") else { return nil }
        let value = attributes[start.upperBound...]
        guard let end = value.firstIndex(of: "\"") else { return nil }
        return unescaped(String(value[..<end]))
    }

    private static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
