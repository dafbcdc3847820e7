/// An HTTP failure as RFC 9457 `application/problem+json`: what any route throws or any error maps to.
public struct Problem: Error, Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// A short kebab-case code; the body's `type` is `/problems/<code>`.
    public var code: String
    /// What happened, in one line naming the realm, type, key or parameter concerned.
    public var detail: String
    /// The errors of an invalid document, in document order.
    public var errors: [ProblemEntry]?
    /// Extra response headers, such as `WWW-Authenticate` or `Retry-After`.
    public var headers: [(String, String)]
    /// Extra members of the body after the standard ones, each a name and its JSON text
    /// (`committedDocuments` of an import that failed after committing some).
    public var members: [(String, String)]

    /// Makes a problem.
    public init(
        status: Int, code: String, detail: String, errors: [ProblemEntry]? = nil, headers: [(String, String)] = [],
        members: [(String, String)] = []
    ) {
        self.status = status
        self.code = code
        self.detail = detail
        self.errors = errors
        self.headers = headers
        self.members = members
    }

    /// The status's reason phrase, used as the problem's title.
    public var title: String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 499: "Client Closed Request"
        case 503: "Service Unavailable"
        default: status >= 500 ? "Internal Server Error" : "Error"
        }
    }

    /// The body: `type`, `title`, `status`, `detail`, then `errors` for a document.
    public var json: String {
        var members = [
            ("type", JSONText.string("/problems/\(code)")), ("title", JSONText.string(title)),
            ("status", String(status)), ("detail", JSONText.string(detail)),
        ]
        if let errors { members.append(("errors", JSONText.array(errors.map(\.json)))) }
        return JSONText.object(members + self.members) + "\n"
    }

    public static func == (lhs: Problem, rhs: Problem) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.detail == rhs.detail && lhs.errors == rhs.errors
            && lhs.members.elementsEqual(rhs.members, by: ==)
    }

    /// 400: a query parameter that cannot be used.
    static func badParameter(_ detail: String) -> Problem { Problem(status: 400, code: "bad-parameter", detail: detail) }

    /// 404: nothing at this path.
    static func notFound(_ code: String, _ detail: String) -> Problem { Problem(status: 404, code: code, detail: detail) }
}
