/// The problem answers of the OpenAPI document: which statuses each operation can give, and one
/// shared response per status with its `application/problem+json` body and headers.
enum OpenAPIProblems {
    /// What each problem status means, as the service's documentation tables it.
    static let meanings: [(status: Int, meaning: String)] = [
        (400, "A bad parameter, predicate, condition header or copy body"),
        (401, "A missing or unknown bearer token"),
        (403, "Too little scope, a realm the token may not use, or a foreign web page (foreign-origin, foreign-host)"),
        (404, "An unknown realm, type or key"),
        (405, "A method the route does not take for this object"),
        (408, "A body that sent nothing for bodyIdleTimeout seconds"),
        (409, "An existing primary key under insert, or a schema that does not fit"),
        (410, "Last-Event-ID older than the change log keeps"),
        (412, "An If-Match that no longer holds"),
        (413, "A body over its limit"),
        (415, "A body without one of the route's content types"),
        (422, "An invalid document, malformed text, or a migration the data does not allow"),
        (500, "The server failed; its log has the reason"),
        (503, "The realm's writer or the server's workers stayed busy (with Retry-After), or a realm's file went away"),
    ]

    /// The problem statuses `operation` can answer: those of every route (403 for a foreign host,
    /// 500), 401 unless it is public, those of a body (408, 413, 415), 503 where it waits for a
    /// worker, and its own.
    static func statuses(of operation: OpenAPIOperation) -> [Int] {
        var statuses = [403, 500] + operation.problems
        if !operation.isPublic { statuses.append(401) }
        if !operation.body.isEmpty { statuses += [408, 413, 415] }
        if operation.usesWorkers { statuses.append(503) }
        return Set(statuses).sorted()
    }

    /// `components.responses`: `Problem<status>` for every status above.
    static var responses: [(String, String)] {
        meanings.map { entry in
            var headers = [("X-Request-Id", JSONText.object([("$ref", JSONText.string("#/components/headers/X-Request-Id"))]))]
            switch entry.status {
            case 401: headers.append(("WWW-Authenticate", header(required: true, "Bearer")))
            case 405: headers.append(("Allow", header(required: true, "The methods the resource takes")))
            case 503: headers.append(("Retry-After", header(required: false, "Seconds to wait before trying again")))
            default: break
            }
            let content = JSONText.object([("schema", JSONText.object([("$ref", JSONText.string("#/components/schemas/Problem"))]))])
            return ("Problem\(entry.status)", JSONText.object([
                ("description", JSONText.string(entry.meaning)), ("headers", JSONText.object(headers)),
                ("content", JSONText.object([("application/problem+json", content)])),
            ]))
        }
    }

    private static func header(required: Bool, _ description: String) -> String {
        JSONText.object([
            ("description", JSONText.string(description)), ("required", required ? "true" : "false"), ("schema", OpenAPISchemas.string),
        ])
    }

    /// The RFC 9457 problem every error answers with; a document error adds `errors`, and an
    /// import that committed batches before it failed adds `committedDocuments`.
    static let schema = OpenAPISchemas.object(
        required: ["type", "title", "status", "detail"],
        [
            ("type", OpenAPISchemas.string), ("title", OpenAPISchemas.string), ("status", OpenAPISchemas.integer),
            ("detail", OpenAPISchemas.string),
            ("errors", OpenAPISchemas.array(OpenAPISchemas.object(
                required: ["line", "column", "path", "message"],
                [("line", OpenAPISchemas.integer), ("column", OpenAPISchemas.integer), ("path", OpenAPISchemas.string),
                 ("message", OpenAPISchemas.string)]))),
            ("committedDocuments", OpenAPISchemas.integer),
        ])
}
