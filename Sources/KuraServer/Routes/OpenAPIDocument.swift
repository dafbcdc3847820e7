/// The OpenAPI 3.1 description of every route the server answers, served at `GET /openapi.json`.
///
/// It is written here rather than derived from the router, which knows paths and methods but not
/// parameters or bodies; a test compares the two so that neither drifts from the other.
enum OpenAPIDocument {
    /// One operation: a method on a path (in OpenAPI's `{name}` form), its parameters, body and answers.
    struct Operation {
        let method: String
        let path: String
        let summary: String
        var query: [(name: String, type: String, description: String)] = []
        var headers: [(name: String, description: String)] = []
        /// The media types of the request body, none for a route without one.
        var body: [String] = []
        /// Success statuses with their description and media types.
        var success: [(status: Int, description: String, media: [String])]
        /// Problem statuses beyond the ones every route has (401, 403 for a foreign host or origin, 500),
        /// those of every route with a body (408, 413, 415) and of every route that works on a realm (503).
        var problems: [Int] = []
        /// Whether the route needs no token.
        var isPublic = false
    }

    private static let documents = ["application/json", "application/x-ndjson", "application/yaml"]
    private static let nestedURLs = (
        name: ObjectRoutes.nestedURLsParameter, type: "boolean",
        description: "Each nested object without a primary key carries its URL under \"$url\" (import ignores it)")
    private static let single = ["application/json", "application/yaml"]
    /// How `{key}` names an object: its address, as docs/service.md describes it.
    static let keyDescription = "The object's primary key as export writes it, percent-encoded (1, never 01 or +1); "
        + "for a type without a primary key, its object id: a positive integer, never reused in its type, as GET …/changes reports it "
        + "and urls, Content-Location, Location and \"$url\" give it. A type has one form or the other, so they never meet."

    /// Every operation, in the order docs/service.md lists them.
    static let operations: [Operation] = [
        Operation(method: "get", path: "/v1/realms", summary: "The served realms the token may use, with schema versions and counts",
                  success: [(200, "{\"realms\": [{\"name\", \"schemaVersion\", \"counts\"}]}", ["application/json"])]),
        Operation(method: "get", path: "/v1/realms/{realm}/schema", summary: "The schema as kura schema prints it, or as JSON with Accept: application/json",
                  success: [(200, "The schema", ["application/yaml", "application/json"])], problems: [403, 404]),
        Operation(method: "post", path: "/v1/realms/{realm}/import", summary: "Imports the body, streamed as it arrives",
                  query: [("type", "string", "The type of every document (absent: a whole-realm input)"),
                          ("mode", "string", "insert, update, modified or replace"), ("onError", "string", "stop (atomic) or skip"),
                          ("dryRun", "boolean", "Check and count, write nothing")],
                  body: documents, success: [(200, "{\"documents\", \"types\", \"rejected\", \"rejectedCount\", \"unknownKeys\"}", ["application/json"])],
                  problems: [400, 403, 404, 413, 415, 422, 503]),
        Operation(method: "get", path: "/v1/realms/{realm}/imports", summary: "The imports running now: bytes and documents so far, documents per second",
                  success: [(200, "{\"imports\": [{\"id\", \"type\", \"bytes\", \"documents\", \"seconds\", \"documentsPerSecond\"}]}", ["application/json"])],
                  problems: [403, 404]),
        Operation(method: "get", path: "/v1/realms/{realm}/export", summary: "The documents kura export writes with the same options, streamed",
                  query: [("type", "string", "The type to export (absent: the whole realm)"), ("where", "string", "A predicate (needs type)"),
                          ("args", "string", "The values of the predicate's $0, $1 … as a JSON array, such as [3, \"Rex\"]"), ("sort", "string", "Sort keys such as 'age desc, name' (needs type)"), ("limit", "integer", "At most this many documents"),
                          ("format", "string", "json, jsonl or yaml (or from Accept)"), ("pretty", "boolean", "Indented JSON")],
                  success: [(200, "The documents", documents)], problems: [400, 403, 404]),
        Operation(method: "get", path: "/v1/realms/{realm}/objects/{type}", summary: "A page of objects, with a cursor to the next",
                  query: [("where", "string", "A predicate"), ("args", "string", "The values of the predicate's $0, $1 … as a JSON array, such as [3, \"Rex\"]"),
                          ("sort", "string", "Sort keys, as kura export --sort takes them"),
                          ("limit", "integer", "Objects per page, 1 to 1000 (default 100)"), ("after", "string", "The opaque cursor of the next link"),
                          nestedURLs],
                  success: [(200, "{\"objects\": [documents as export writes them], \"urls\": [each object's URL], \"count\", \"next\"}", ["application/json"])],
                  problems: [400, 403, 404]),
        Operation(method: "post", path: "/v1/realms/{realm}/objects/{type}", summary: "Creates one object",
                  query: [("mode", "string", "insert (default), update, modified or replace")], body: single,
                  success: [(201, "The object as export writes it, with Location and ETag", ["application/json"]),
                            (200, "An existing object updated (mode other than insert), with its ETag", ["application/json"])],
                  problems: [400, 403, 404, 409, 413, 415, 422, 503]),
        Operation(method: "delete", path: "/v1/realms/{realm}/objects/{type}", summary: "Deletes the objects a predicate selects",
                  query: [("where", "string", "Required; TRUEPREDICATE deletes all"), ("args", "string", "The values of the predicate's $0, $1 … as a JSON array, such as [3, \"Rex\"]")],
                  success: [(200, "{\"deleted\": n}", ["application/json"])], problems: [400, 403, 404, 503]),
        Operation(method: "get", path: "/v1/realms/{realm}/objects/{type}/{key}", summary: "One object by primary key (object id for a type without one)",
                  query: [nestedURLs], headers: [("If-None-Match", "304 when the ETag matches")],
                  success: [(200, "The object as export writes it, with an ETag and its URL in Content-Location", ["application/json"]), (304, "Not modified", [])],
                  problems: [403, 404]),
        Operation(method: "get", path: "/v1/realms/{realm}/objects/{type}/{key}/backlinks", summary: "The objects whose links reach the object, per linking property",
                  query: [("limit", "integer", "URLs per property, 1 to 1000 (default 100)")],
                  success: [(200, "{\"backlinks\": [{\"type\", \"property\", \"count\", \"urls\"}]}", ["application/json"])],
                  problems: [400, 403, 404]),
        Operation(method: "put", path: "/v1/realms/{realm}/objects/{type}/{key}", summary: "Replaces the object (creates it when there is none); 405 for a type without a primary key",
                  headers: [("If-Match", "412 unless the object's ETag is listed (* matches an existing object)")], body: single,
                  success: [(200, "The object, with its new ETag", ["application/json"]), (201, "Created, with Location", ["application/json"])],
                  problems: [403, 404, 405, 412, 413, 415, 422, 503]),
        Operation(method: "patch", path: "/v1/realms/{realm}/objects/{type}/{key}", summary: "Sets the properties the body gives, leaving the rest (also for a type without a primary key)",
                  headers: [("If-Match", "412 unless the object's ETag is listed (* matches an existing object)")], body: single,
                  success: [(200, "The object, with its new ETag", ["application/json"])],
                  problems: [403, 404, 405, 412, 413, 415, 422, 503]),
        Operation(method: "delete", path: "/v1/realms/{realm}/objects/{type}/{key}", summary: "Deletes the object",
                  headers: [("If-Match", "412 unless the object's ETag is listed")],
                  success: [(204, "Deleted", [])], problems: [403, 404, 412, 503]),
        Operation(method: "post", path: "/v1/copy", summary: "Copies objects between served realms, as kura copy does",
                  body: ["application/json"], success: [(200, "{\"types\": {T: {\"inserted\", \"updated\", \"unchanged\", \"deleted\"}}}", ["application/json"])],
                  problems: [400, 403, 404, 409, 413, 422, 503]),
        Operation(method: "post", path: "/v1/realms/{realm}/migrate", summary: "Migrates the realm to the schema in the body (admin)",
                  query: [("dryRun", "boolean", "The plan only")], body: ["application/yaml", "application/json"],
                  success: [(200, "{\"plan\", \"result\"}", ["application/json"])], problems: [403, 404, 413, 422, 503]),
        Operation(method: "get", path: "/v1/realms/{realm}/check", summary: "kura check's report as JSON",
                  success: [(200, "The report", ["application/json"])], problems: [403, 404]),
        Operation(method: "get", path: "/v1/realms/{realm}/changes", summary: "Server-sent events, one change event per committed write transaction from any process",
                  headers: [("Last-Event-ID", "Resume after this version: every later commit first, then live ones")],
                  success: [(200, "event: change, id: the version, data: {\"version\", \"types\": {T: {\"inserted\", \"modified\", \"deleted\"}}}", ["text/event-stream"])],
                  problems: [400, 403, 404, 410]),
        Operation(method: "get", path: "/healthz", summary: "Liveness, and whether a worker is free (503 saturated while none is)",
                  success: [(200, "{\"status\": \"ok\", \"workers\": {\"running\", \"waiting\", \"limit\"}}", ["application/json"])],
                  problems: [503], isPublic: true),
        Operation(method: "get", path: "/readyz", summary: "Readiness: the realms open", success: [(200, "{\"status\": \"ready\", \"realms\": n}", ["application/json"])], problems: [503], isPublic: true),
        Operation(method: "get", path: "/metrics", summary: "Prometheus metrics", success: [(200, "Prometheus text", ["text/plain"])], problems: [403]),
        Operation(method: "get", path: "/openapi.json", summary: "This description", success: [(200, "OpenAPI 3.1", ["application/json"])], isPublic: true),
        Operation(method: "get", path: "/", summary: "Kura Studio, the web console (its page; it uses the API above with the user's token)",
                  success: [(200, "The page", ["text/html"])], isPublic: true),
        Operation(method: "get", path: "/studio/{file}", summary: "Kura Studio's scripts and style sheet",
                  success: [(200, "The file", ["text/javascript", "text/css"])], problems: [404], isPublic: true),
    ]

    /// The document as JSON text.
    static var json: String {
        var paths: [(String, [(String, String)])] = []
        for operation in operations {
            if let index = paths.firstIndex(where: { $0.0 == operation.path }) {
                paths[index].1.append((operation.method, describe(operation)))
            } else {
                paths.append((operation.path, [(operation.method, describe(operation))]))
            }
        }
        let problemSchema = JSONText.object([
            ("type", JSONText.string("object")),
            ("required", JSONText.array(["type", "title", "status", "detail"].map(JSONText.string))),
            ("properties", JSONText.object([
                ("type", #"{"type":"string"}"#), ("title", #"{"type":"string"}"#), ("status", #"{"type":"integer"}"#),
                ("detail", #"{"type":"string"}"#),
                ("errors", JSONText.object([("type", JSONText.string("array")), ("items", JSONText.object([
                    ("type", JSONText.string("object")),
                    ("properties", JSONText.object([
                        ("line", #"{"type":"integer"}"#), ("column", #"{"type":"integer"}"#),
                        ("path", #"{"type":"string"}"#), ("message", #"{"type":"string"}"#),
                    ])),
                ]))])),
            ])),
        ])
        return JSONText.object([
            ("openapi", JSONText.string("3.1.0")),
            ("info", JSONText.object([("title", JSONText.string("Kura")), ("version", JSONText.string("1"))])),
            ("paths", JSONText.object(paths.map { ($0.0, JSONText.object($0.1)) })),
            ("components", JSONText.object([
                ("schemas", JSONText.object([("Problem", problemSchema)])),
                ("responses", JSONText.object([("Problem", JSONText.object([
                    ("description", JSONText.string("An RFC 9457 problem")),
                    ("content", JSONText.object([("application/problem+json", JSONText.object([("schema", ref("schemas/Problem"))]))])),
                ]))])),
                ("securitySchemes", JSONText.object([("bearer", JSONText.object([
                    ("type", JSONText.string("http")), ("scheme", JSONText.string("bearer")),
                ]))])),
            ])),
            ("security", JSONText.array([JSONText.object([("bearer", "[]")])])),
        ])
    }

    private static func ref(_ name: String) -> String { JSONText.object([("$ref", JSONText.string("#/components/\(name)"))]) }

    private static func describe(_ operation: Operation) -> String {
        var parameters: [String] = []
        var start = operation.path.startIndex
        while let open = operation.path[start...].firstIndex(of: "{"), let close = operation.path[open...].firstIndex(of: "}") {
            let name = String(operation.path[operation.path.index(after: open)..<close])
            parameters.append(parameter(name, in: "path", required: true, type: "string", description: name == "key" ? keyDescription : "The \(name)"))
            start = close
        }
        for item in operation.query { parameters.append(parameter(item.name, in: "query", required: false, type: item.type, description: item.description)) }
        for item in operation.headers { parameters.append(parameter(item.name, in: "header", required: false, type: "string", description: item.description)) }
        var responses = operation.success.map { success in
            var members = [("description", JSONText.string(success.description))]
            if !success.media.isEmpty {
                members.append(("content", JSONText.object(success.media.map { ($0, "{}") })))
            }
            return (String(success.status), JSONText.object(members))
        }
        var problems = (operation.isPublic ? [] : [401]) + [403] + operation.problems + [500]
        if !operation.body.isEmpty { problems += [408, 413, 415] }
        if operation.path.hasPrefix("/v1/") { problems.append(503) }
        for status in Set(problems).sorted() { responses.append((String(status), ref("responses/Problem"))) }
        var members = [
            ("summary", JSONText.string(operation.summary)), ("parameters", JSONText.array(parameters)),
        ]
        if !operation.body.isEmpty {
            members.append(("requestBody", JSONText.object([
                ("required", "true"), ("content", JSONText.object(operation.body.map { ($0, "{}") })),
            ])))
        }
        members.append(("responses", JSONText.object(responses)))
        if operation.isPublic { members.append(("security", "[]")) }
        return JSONText.object(members)
    }

    private static func parameter(_ name: String, in place: String, required: Bool, type: String, description: String) -> String {
        JSONText.object([
            ("name", JSONText.string(name)), ("in", JSONText.string(place)), ("required", required ? "true" : "false"),
            ("description", JSONText.string(description)), ("schema", JSONText.object([("type", JSONText.string(type))])),
        ])
    }
}
