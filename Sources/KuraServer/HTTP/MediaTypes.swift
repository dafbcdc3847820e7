import Foundation
import Hummingbird
import Kura

/// Content types of documents and what `Accept` asks for.
enum MediaTypes {
    /// The content type of each export format.
    static func contentType(of format: DocumentFormat) -> String {
        switch format {
        case .json: "application/json"
        case .jsonl: "application/x-ndjson"
        case .yaml: "application/yaml"
        }
    }

    /// The format a media type names (`application/jsonl` and `text/yaml` too), or `nil`.
    static func format(of mediaType: String) -> DocumentFormat? {
        switch bare(mediaType) {
        case "application/json": return .json
        case "application/x-ndjson", "application/jsonl", "application/jsonlines": return .jsonl
        case "application/yaml", "application/x-yaml", "text/yaml": return .yaml
        default: return nil
        }
    }

    /// The document format `Accept` prefers: among the types it lists with a quality above 0, the
    /// one of highest quality (the first of equals), or `nil` (no header, `*/*`, or nothing known).
    static func acceptedFormat(_ request: Request) -> DocumentFormat? {
        accepted(request).lazy.compactMap { format(of: $0) }.first
    }

    /// Whether `Accept` lists `mediaType` with a quality above 0.
    static func accepts(_ request: Request, _ mediaType: String) -> Bool {
        accepted(request).contains(mediaType)
    }

    /// The media types `Accept` lists, most wanted first, without those of quality 0 (`q=0` means
    /// "not this one", RFC 9110 §12.5.1).
    private static func accepted(_ request: Request) -> [String] {
        guard let accept = request.headers[.accept] else { return [] }
        let ranked = accept.split(separator: ",").enumerated().compactMap { index, item -> (type: String, quality: Double, index: Int)? in
            let parts = item.split(separator: ";")
            guard let first = parts.first else { return nil }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0].lowercased() == "q" { quality = Double(pair[1]) ?? 0 }
            }
            guard quality > 0 else { return nil }
            return (first.trimmingCharacters(in: .whitespaces).lowercased(), quality, index)
        }
        return ranked.sorted { ($0.quality, -$0.index) > ($1.quality, -$1.index) }.map(\.type)
    }

    /// Throws 415 unless the request's `Content-Type` is one of `mediaTypes` (parameters such as
    /// `charset` aside): a body whose type a browser may send from any page without asking the
    /// server first (`text/plain`, a form's) is never taken for one it is not.
    static func require(_ request: Request, _ mediaTypes: [String], describing advice: String) throws(Problem) {
        let given = request.headers[.contentType] ?? ""
        guard !mediaTypes.contains(bare(given)) else { return }
        let named = given.isEmpty ? "no Content-Type" : "Content-Type '\(MessageText.shown(given))'"
        throw Problem(status: 415, code: "unsupported-media-type", detail: "\(named): \(advice)")
    }

    /// A media type without its parameters, in lower case.
    private static func bare(_ mediaType: String) -> String {
        mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }
}
