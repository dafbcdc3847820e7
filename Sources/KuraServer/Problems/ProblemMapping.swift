import Hummingbird
import Kura

/// Where every error a route throws becomes an HTTP status and a problem body.
///
/// The library's errors answer with their own table (`KuraError.problem`); a client that went away,
/// and HTTP's own errors, with the ones here. Anything unknown is a 500 whose detail says nothing
/// of the server's internals.
public enum ProblemMapping {
    /// The problem `error` stands for.
    public static func problem(for error: any Error) -> Problem {
        switch error {
        case let problem as Problem: return problem
        case let gone as ClientGone: return Problem(status: ClientGone.status, code: "client-closed-request", detail: gone.detail)
        case let error as KuraError: return error.problem
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

    /// 503 with `Retry-After`: the realm's writer stayed busy, without progress, for `writeWait`.
    static let writerBusy = Problem(
        status: 503, code: "writer-busy", detail: "another write held the realm for longer than server.writeWait: try again",
        headers: [("Retry-After", "1")])
}
