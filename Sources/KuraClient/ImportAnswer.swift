import Foundation
import Kura

/// The import route's answer, `{"documents", "types": {T: {"inserted", …}}, "rejectedCount",
/// "rejectedTypes", "unknownKeys"}`, as the library's import summary.
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
}
