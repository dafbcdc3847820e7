import Hummingbird
import Kura

/// The body of a single-object write: exactly one JSON or YAML document, named `body` in messages.
/// It is read whole, as it may hold at most `server.maxOtherBodyBytes`.
enum SingleDocumentBody {
    /// The one document of `request`'s body: 415 for a content type that is no document format, 413
    /// past `limit` (from `Content-Length` before anything is read), 422 for malformed text, no
    /// document or more than one.
    static func read(_ request: Request, limit: Int) async throws -> DocumentNode {
        let format = try ImportRoute.format(of: request)
        let bytes = Array(try await collect(request, limit: limit).readableBytesView)
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

    /// The whole body of `request`, at most `limit` bytes: 413 before anything is read when
    /// `Content-Length` says more, else as soon as the body grows past it.
    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw tooLarge(limit)
        }
        var request = request
        do {
            return try await request.collectBody(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw tooLarge(limit)
        }
    }

    /// 413 for a body over `limit`.
    static func tooLarge(_ limit: Int) -> Problem {
        Problem(status: 413, code: "body-too-large", detail: "this body may hold at most \(limit) bytes (only an import's may be larger)")
    }
}
