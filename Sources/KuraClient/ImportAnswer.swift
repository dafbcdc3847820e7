import Foundation
import Kura

/// The import route's answer, `{"documents", "types": {T: {"inserted", …}}, "rejected",
/// "rejectedCount", "rejectedTypes", "unknownKeys"}`, as the library's import summary and the
/// rejected documents it lists.
struct ImportAnswer {
    private let object: [String: Any]
    private let realm: RemoteRealmURL

    init(_ body: [UInt8], realm: RemoteRealmURL) throws(KuraError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], object["documents"] is Int else {
            throw KuraError(.remote(.serverFailed), "realm '\(realm)' answered the import with what is not an import's summary")
        }
        self.object = object
        self.realm = realm
    }

    /// The summary; `bytes` is the size of what was sent, when known.
    func summary(bytes: Int?) -> ImportSummary {
        var summary = ImportSummary()
        summary.documents = object["documents"] as? Int ?? 0
        summary.bytes = bytes ?? 0
        for (type, value) in object["types"] as? [String: Any] ?? [:] {
            guard let counts = value as? [String: Any] else { continue }
            summary.counts[type] = ChangeCounts(
                inserted: counts["inserted"] as? Int ?? 0, updated: counts["updated"] as? Int ?? 0,
                unchanged: counts["unchanged"] as? Int ?? 0, deleted: counts["deleted"] as? Int ?? 0)
        }
        for (type, value) in object["unknownKeys"] as? [String: Any] ?? [:] {
            if let count = value as? Int { summary.unknownKeys[type] = count }
        }
        for (type, value) in object["rejectedTypes"] as? [String: Any] ?? [:] {
            if let count = value as? Int, count > 0 { summary.rejected[type] = count }
        }
        return summary
    }

    /// The rejected documents the answer lists (the server lists the first thousand), their errors
    /// placed in `file`, the name the input is known by (the server calls every body `body`).
    func rejected(file: String) -> [RejectedDocument] {
        (object["rejected"] as? [Any] ?? []).compactMap { entry in
            guard let entry = entry as? [String: Any], let start = entry["document"] as? [String: Any],
                let line = start["line"] as? Int, let column = start["column"] as? Int
            else { return nil }
            let errors = (entry["errors"] as? [String] ?? []).map { error in
                error.hasPrefix("body:") ? file + error.dropFirst(4) : error
            }
            return RejectedDocument(line: line, column: column, errors: errors)
        }
    }
}
