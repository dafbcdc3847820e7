import Kura

/// Runs one import and describes it as the import route answers:
/// `{"documents", "types": {T: {"inserted", "updated", "unchanged", "deleted"}}, "rejected", "rejectedCount", "rejectedTypes", "unknownKeys"}`.
struct ImportResult: Sendable {
    /// Documents between reports to `GET …/imports`.
    static let progressInterval = 100

    /// The response body.
    let json: String
    /// Documents read.
    let documents: Int
    /// Bytes read.
    let bytes: Int

    /// Imports `reader` into `realm` and describes what it did.
    ///
    /// Each rejected document (under `onError=skip`) is listed with where it starts and the lines
    /// `kura import` prints for it, the first `maxListed` of them.
    /// `onProgress` hears the documents read, every `progressInterval` documents; `onFailure`, should
    /// the import fail, how many documents it committed before (under `onError=skip`).
    static func run(
        _ reader: some DocumentReader, into realm: Realm, options: ImportOptions, maxListed: Int,
        onProgress: @escaping (Int) -> Void = { _ in }, onFailure: (Int) -> Void = { _ in }
    ) throws -> ImportResult {
        let importer = DocumentImporter(realm: realm, options: options)
        importer.progressInterval = progressInterval
        importer.onProgress = { onProgress($0.documents) }
        var rejected: [String] = []
        importer.onReject = { node, errors in
            guard rejected.count < maxListed else { return }
            let start = JSONText.object([("line", String(node.position.line)), ("column", String(node.position.column))])
            rejected.append(JSONText.object([("document", start), ("errors", JSONText.array(errors.map(JSONText.string)))]))
        }
        let summary: ImportSummary
        do {
            summary = try importer.run(reader)
        } catch {
            onFailure(importer.committedDocuments)
            throw error
        }
        let types = summary.types.map { type in
            let counts = summary.counts[type] ?? ChangeCounts()
            return (type, JSONText.object([
                ("inserted", String(counts.inserted)), ("updated", String(counts.updated)),
                ("unchanged", String(counts.unchanged)), ("deleted", String(counts.deleted)),
            ]))
        }
        let unknownKeys = summary.unknownKeys.keys.sorted().map { ($0, String(summary.unknownKeys[$0] ?? 0)) }
        let rejectedTypes = summary.rejected.keys.sorted().map { ($0, String(summary.rejected[$0] ?? 0)) }
        var members = [
            ("documents", String(summary.documents)), ("types", JSONText.object(types)),
            ("rejected", JSONText.array(rejected)), ("rejectedCount", String(summary.totalRejected)),
            ("rejectedTypes", JSONText.object(rejectedTypes)), ("unknownKeys", JSONText.object(unknownKeys)),
        ]
        if options.dryRun { members.append(("dryRun", "true")) }
        return ImportResult(json: JSONText.object(members), documents: summary.documents, bytes: summary.bytes)
    }
}
