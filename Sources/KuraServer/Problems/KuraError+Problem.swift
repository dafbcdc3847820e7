import HTTPTypes
import Hummingbird
import Kura

/// The library's errors as HTTP responses: the one table of statuses and problem codes.
///
/// Library errors keep the text the command line prints as their `detail` (or their bare message,
/// where the problem's code already says what kind of error it is); document errors also list each
/// error with its position.
extension KuraError: HTTPResponseError {
    /// The problem this error stands for.
    public var problem: Problem {
        if isBusy { return ProblemMapping.writerBusy }
        switch code {
        case .mapping:
            let errors = allErrors
            return Problem(
                status: 422, code: "invalid-document", detail: Self.documentDetail(errors.count, truncated: moreErrors),
                errors: errors.map(Self.entry))
        case .document(.io), .document(.outputClosed), .document(.unwritableValue):
            return ProblemMapping.internalError
        case .document, .transfer(.badDocument), .transfer(.badInput):
            return Problem(status: 422, code: "invalid-document", detail: description, errors: placedEntry.map { [$0] } ?? [])
        case .query(.unknownType): return Problem(status: 404, code: "unknown-type", detail: description)
        case .query: return Problem(status: 400, code: "bad-query", detail: description)
        case .store(.openFailed), .store(.database), .store(.corruptRealm), .store(.notInWriteTransaction):
            return ProblemMapping.internalError
        case .store(.duplicatePrimaryKey): return Problem(status: 409, code: "exists", detail: message)
        case .store(.unknownType): return Problem(status: 404, code: "unknown-type", detail: message)
        case .store(.objectDeleted): return Problem(status: 404, code: "unknown-key", detail: message)
        case .store(.changesPruned): return Problem(status: 410, code: "changes-pruned", detail: message)
        case .store(.embeddedMisuse), .store(.asymmetricMisuse), .transfer(.usage):
            return Problem(status: 400, code: "bad-parameter", detail: message)
        case .store(.schemaMismatch), .store(.schemaVersionTooLow), .transfer(.schemaMismatch):
            return Problem(status: 409, code: "schema-mismatch", detail: message)
        case .store: return Problem(status: 422, code: "invalid-document", detail: message)
        case .schema(.unreadableFile): return Problem(status: 500, code: "invalid-schema", detail: description)
        case .schema: return Problem(status: 422, code: "invalid-schema", detail: description)
        case .migration: return Problem(status: 422, code: "migration-refused", detail: message)
        case .check: return Problem(status: 500, code: "unreadable-realm", detail: message)
        case .remote: return Problem(status: 502, code: "remote-failed", detail: message)
        }
    }

    /// The response's status.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: problem.status) }

    /// The problem as an `application/problem+json` response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        TextResponse.problem(problem)
    }

    /// The errors of one document (an import stops at its first bad document; a write has one).
    private static func documentDetail(_ count: Int, truncated: Bool) -> String {
        let more = truncated ? " (more not shown)" : ""
        return count == 1 ? "the document has 1 error" : "the document has \(count) errors\(more)"
    }

    private static func entry(_ error: KuraError) -> ProblemEntry {
        ProblemEntry(
            line: error.position?.line ?? 0, column: error.position?.column ?? 0, path: error.path ?? "", message: error.description)
    }

    /// The one entry of an error placed in its document, whose path is the one its message opens with.
    private var placedEntry: ProblemEntry? {
        position.map { ProblemEntry(line: $0.line, column: $0.column, path: Self.path(opening: message), message: description) }
    }

    /// The document path a library message starts with (`$[0].dogs[1]: …`), or "" when it names none.
    private static func path(opening message: String) -> String {
        guard message.hasPrefix("$"), let end = message.range(of: ": ") else { return "" }
        let path = message[..<end.lowerBound]
        return path.contains(" ") ? "" : String(path)
    }
}
