import Foundation
import Kura

/// A refusal from `kura serve` (an `application/problem+json` body) as the library's error, so that
/// a program, or the command line, tells it as it tells the same error from a local realm.
struct ServerProblem {
    let status: Int
    /// The problem's code: the last part of its `type`, `/problems/<code>`.
    let code: String
    let detail: String
    /// An invalid document's errors: line, column, path and the line `kura import` prints.
    let entries: [(line: Int, column: Int, path: String, message: String)]

    /// Reads a problem body; `nil` when `body` is not one.
    init?(status: Int, body: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let type = object["type"] as? String, let detail = object["detail"] as? String
        else { return nil }
        self.status = status
        code = type.split(separator: "/").last.map(String.init) ?? type
        self.detail = detail
        let errors = object["errors"] as? [[String: Any]] ?? []
        entries = errors.map { entry in
            (entry["line"] as? Int ?? 0, entry["column"] as? Int ?? 0, entry["path"] as? String ?? "", entry["message"] as? String ?? "")
        }
    }

    /// The library's error for this problem, from `realm`; document errors placed in `file`, the
    /// name the input is known by (the server calls every body `body`).
    func error(realm: RemoteRealmURL, file: String?) -> KuraError {
        switch code {
        case "unauthorized": return KuraError(.remote(.unauthorized), "realm '\(realm)' refused the token: \(detail)")
        case "forbidden": return KuraError(.remote(.forbidden), "realm '\(realm)' refused the request: \(detail)")
        case "unknown-realm": return KuraError(.remote(.noRealm), "no realm at '\(realm)': the server serves no realm '\(realm.name)'")
        case "writer-busy", "server-busy", "body-idle", "shutting-down", "not-ready", "realm-unavailable": return KuraError(.remote(.busy), "realm '\(realm)' is busy: \(detail)")
        case "invalid-document" where !entries.isEmpty:
            let errors = entries.map { entry in
                KuraError(
                    .mapping(.invalidValue), Self.bareMessage(entry.message, path: entry.path), file: file,
                    position: entry.line > 0 ? TextPosition(line: entry.line, column: entry.column) : nil,
                    path: entry.path.isEmpty ? nil : entry.path)
            }
            return KuraError.documentErrors(errors)
        case "invalid-document": return KuraError(.mapping(.invalidValue), Self.bareMessage(detail, path: ""), file: file)
        case "unknown-type": return KuraError(.store(.unknownType), Self.bareMessage(detail, path: ""))
        case "exists": return KuraError(.store(.duplicatePrimaryKey), detail)
        case "bad-query": return Self.queryError(detail)
        case "bad-parameter": return KuraError(.transfer(.usage), detail)
        case "schema-mismatch": return KuraError(.store(.schemaMismatch), detail)
        case "changes-pruned": return KuraError(.store(.changesPruned), "realm '\(realm)': \(detail)")
        default: return KuraError(.remote(.serverFailed), "realm '\(realm)' answered \(status): \(detail)")
        }
    }

    /// A query's error as the library places it: `where: column 5: error: text` says the part of
    /// the query and the column.
    static func queryError(_ line: String) -> KuraError {
        let message = bareMessage(line, path: "")
        for part in ["where", "sort"] {
            let prefix = "\(part): column "
            guard line.hasPrefix(prefix), let end = line.range(of: ": error: ") else { continue }
            if let column = Int(line[line.index(line.startIndex, offsetBy: prefix.count)..<end.lowerBound]) {
                return KuraError(.query(.syntax), message, file: part, position: TextPosition(line: 1, column: column))
            }
        }
        return KuraError(.query(.syntax), message)
    }

    /// The message of a line as the command line prints it (`body:3:7: error: $[2].age: text`),
    /// without the place the error's own fields carry.
    static func bareMessage(_ line: String, path: String) -> String {
        var text = Substring(line)
        if let range = text.range(of: "error: ") { text = text[range.upperBound...] }
        if !path.isEmpty, text.hasPrefix(path + ": ") { text = text.dropFirst(path.count + 2) }
        return String(text)
    }
}
