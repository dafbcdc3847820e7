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
        let bare = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch bare {
        case "application/json": return .json
        case "application/x-ndjson", "application/jsonl", "application/jsonlines": return .jsonl
        case "application/yaml", "application/x-yaml", "text/yaml": return .yaml
        default: return nil
        }
    }

    /// The first document format `Accept` lists, or `nil` (no header, `*/*`, or nothing known).
    static func acceptedFormat(_ request: Request) -> DocumentFormat? {
        guard let accept = request.headers[.accept] else { return nil }
        for item in accept.split(separator: ",") {
            if let format = format(of: String(item)) { return format }
        }
        return nil
    }

    /// Whether `Accept` lists `mediaType`.
    static func accepts(_ request: Request, _ mediaType: String) -> Bool {
        guard let accept = request.headers[.accept] else { return false }
        return accept.split(separator: ",").contains { item in
            item.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } == mediaType
        }
    }
}
