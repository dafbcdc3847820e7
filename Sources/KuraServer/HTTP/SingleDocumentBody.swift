import Hummingbird
import Kura

/// The body of a single-object write: exactly one JSON or YAML document, named `body` in messages.
/// It is read whole, as it may hold at most `server.maxOtherBodyBytes`.
enum SingleDocumentBody {
    /// The one document of `request`'s body: 415 for a content type that is no document format,
    /// 413 and 408 as `limits` has them, 422 for malformed text, no document or more than one.
    static func read(_ request: Request, limits: BodyLimits) async throws -> DocumentNode {
        let format = try ImportRoute.format(of: request)
        let bytes = Array(try await limits.collect(request).readableBytesView)
        let reader: any DocumentReader = switch format {
        case .json, .jsonl: JSONReader(bytes: bytes, file: "body", layout: .document)
        case .yaml: YAMLReader(bytes: bytes, file: "body")
        }
        guard let node = try reader.next() else {
            throw Problem(status: 422, code: "invalid-document", detail: "the body holds no document: send one object")
        }
        if try reader.next() != nil {
            throw Problem(
                status: 422, code: "invalid-document",
                detail: "the body holds more than one document: send one object, or POST them to …/import")
        }
        return node
    }
}
