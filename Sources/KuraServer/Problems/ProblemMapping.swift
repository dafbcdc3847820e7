import Hummingbird
import Kura

/// The one place where errors become HTTP statuses and problem bodies.
///
/// Library errors keep the text the command line prints as their `detail`; document errors also
/// list each error with its position. Anything unknown is a 500 whose detail says nothing of
/// the server's internals.
public enum ProblemMapping {
    /// The problem `error` stands for.
    public static func problem(for error: any Error) -> Problem {
        switch error {
        case let problem as Problem: return problem
        case let gone as ClientGone: return Problem(status: ClientGone.status, code: "client-closed-request", detail: gone.detail)
        case let error as MappingErrors:
            return Problem(
                status: 422, code: "invalid-document", detail: detail(error.errors.count, truncated: error.truncated),
                errors: error.errors.map(entry))
        case let error as MappingError:
            return Problem(status: 422, code: "invalid-document", detail: detail(1, truncated: false), errors: [entry(error)])
        case let error as DocumentError: return problem(for: error)
        case let error as QueryError: return problem(for: error)
        case let error as StoreError: return problem(for: error)
        case let error as TransferError: return problem(for: error)
        case let error as SchemaError:
            return Problem(status: error.code == .unreadableFile ? 500 : 422, code: "invalid-schema", detail: error.description)
        case let error as MigrationError:
            return Problem(status: 422, code: "migration-refused", detail: error.message)
        case let error as CheckError:
            return Problem(status: 500, code: "unreadable-realm", detail: error.message)
        case let error as any HTTPResponseError:
            return problem(forStatus: Int(error.status.code))
        default:
            return internalError
        }
    }

    /// The problem for a bare HTTP status (a route that does not exist, a method it lacks).
    static func problem(forStatus status: Int) -> Problem {
        switch status {
        case 404: Problem(status: 404, code: "not-found", detail: "no such route")
        case 405: Problem(status: 405, code: "method-not-allowed", detail: "the route does not take this method")
        case 413: Problem(status: 413, code: "body-too-large", detail: "the body is larger than the server accepts")
        default: status >= 500 ? internalError : Problem(status: status, code: "http-\(status)", detail: "the request failed")
        }
    }

    static let internalError = Problem(status: 500, code: "internal", detail: "the server failed; its log has the reason")

    /// The errors of one document (an import stops at its first bad document; a write has one).
    private static func detail(_ count: Int, truncated: Bool) -> String {
        let more = truncated ? " (more not shown)" : ""
        return count == 1 ? "the document has 1 error" : "the document has \(count) errors\(more)"
    }

    /// The document path a library message starts with (`$[0].dogs[1]: …`), or "" when it names none.
    private static func path(opening message: String) -> String {
        guard message.hasPrefix("$"), let end = message.range(of: ": ") else { return "" }
        let path = message[..<end.lowerBound]
        return path.contains(" ") ? "" : String(path)
    }

    private static func entry(_ error: MappingError) -> ProblemEntry {
        ProblemEntry(line: error.position.line, column: error.position.column, path: error.path, message: error.description)
    }

    private static func problem(for error: DocumentError) -> Problem {
        switch error.code {
        case .io, .outputClosed, .unwritableValue:
            return internalError
        default:
            let position = error.position
            let entries = position.map {
                [ProblemEntry(line: $0.line, column: $0.column, path: path(opening: error.message), message: error.description)]
            }
            return Problem(status: 422, code: "invalid-document", detail: error.description, errors: entries ?? [])
        }
    }

    private static func problem(for error: QueryError) -> Problem {
        switch error.code {
        case .unknownType: Problem(status: 404, code: "unknown-type", detail: error.description)
        default: Problem(status: 400, code: "bad-query", detail: error.description)
        }
    }

    /// 503 with `Retry-After`: the realm's writer stayed busy, without progress, for `writeWait`.
    static let writerBusy = Problem(
        status: 503, code: "writer-busy", detail: "another write held the realm for longer than server.writeWait: try again",
        headers: [("Retry-After", "1")])

    private static func problem(for error: StoreError) -> Problem {
        // SQLite's SQLITE_BUSY (5) and SQLITE_LOCKED (6), as the store words them.
        if error.code == .database, error.message.hasPrefix("SQLite error 5:") || error.message.hasPrefix("SQLite error 6:") {
            return writerBusy
        }
        return switch error.code {
        case .openFailed, .database, .corruptRealm, .notInWriteTransaction: internalError
        case .duplicatePrimaryKey: Problem(status: 409, code: "exists", detail: error.message)
        case .unknownType: Problem(status: 404, code: "unknown-type", detail: error.message)
        case .objectDeleted: Problem(status: 404, code: "unknown-key", detail: error.message)
        case .changesPruned: Problem(status: 410, code: "changes-pruned", detail: error.message)
        case .embeddedMisuse, .asymmetricMisuse: Problem(status: 400, code: "bad-parameter", detail: error.message)
        case .schemaMismatch, .schemaVersionTooLow: Problem(status: 409, code: "schema-mismatch", detail: error.message)
        default: Problem(status: 422, code: "invalid-document", detail: error.message)
        }
    }

    private static func problem(for error: TransferError) -> Problem {
        switch error.code {
        case .usage: return Problem(status: 400, code: "bad-parameter", detail: error.message)
        case .schemaMismatch: return Problem(status: 409, code: "schema-mismatch", detail: error.message)
        case .badDocument, .badInput:
            let entries = error.position.map {
                [ProblemEntry(line: $0.line, column: $0.column, path: path(opening: error.message), message: error.description)]
            }
            return Problem(status: 422, code: "invalid-document", detail: error.description, errors: entries ?? [])
        }
    }
}
