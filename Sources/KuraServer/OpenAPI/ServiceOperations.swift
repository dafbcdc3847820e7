import Kura

/// The operations of the service that are not about single objects: realms, transfer, checks,
/// changes, probes, metrics, this description and Kura Studio. Realm and type names are listed
/// as the realms are now, so that a client (or a tester) can name only what exists.
struct ServiceOperations {
    let realms: [RealmSnapshot]

    typealias Schemas = OpenAPISchemas
    typealias Operation = OpenAPIOperation
    typealias Parameter = OpenAPIOperation.Parameter

    static let documentMedia = ["application/json", "application/x-ndjson", "application/yaml"]

    /// `{realm}`: one of the served realms the token may use.
    var realmParameter: Parameter {
        let names = realms.map(\.name)
        let schema = names.isEmpty ? Schemas.string : Schemas.oneOf(names)
        return .path("realm", schema, "A served realm's name", example: names.first.map(JSONText.string))
    }

    /// The names of every realm's top-level types, for the `type` of export and import.
    private var typeNames: [String] {
        var names: [String] = []
        for realm in realms {
            for type in realm.schema.types where !type.isEmbedded && !names.contains(type.name) { names.append(type.name) }
        }
        return names
    }

    private var typeQuery: Parameter {
        .query("type", typeNames.isEmpty ? Schemas.string : Schemas.oneOf(typeNames), "A type of the realm (absent: every type, each document led by \"$type\")")
    }

    static let whereQuery = Parameter.query("where", Schemas.text, "A predicate, as kura export --where takes it")
    static let argsQuery = Parameter.jsonQuery(
        "args", Schemas.array(ValueSchemas.argument), "The values of the predicate's $0, $1 … (with where), such as [3, \"Rex\"]")
    static let sortQuery = Parameter.query("sort", Schemas.text, "Sort keys such as 'age desc, name', as kura export --sort takes them")
    static let modeQuery = Parameter.query("mode", Schemas.oneOf(["insert", "update", "modified", "replace"]), "What an existing primary key does (default insert: 409)")
    /// A flag: true or false, or given without a value (`?dryRun`), which is true.
    static func flag(_ name: String, _ description: String) -> Parameter { .query(name, #"{"enum":[true,false,""]}"#, description) }

    private static let counts = Schemas.object(
        required: ["inserted", "updated", "unchanged", "deleted"],
        [("inserted", Schemas.integer), ("updated", Schemas.integer), ("unchanged", Schemas.integer), ("deleted", Schemas.integer)])

    private static func json(_ status: Int, _ description: String, _ schema: String, headers: [(String, Bool)] = []) -> Operation.Answer {
        Operation.Answer(status: status, description: description, content: [("application/json", schema)], headers: headers)
    }

    var operations: [OpenAPIOperation] {
        let realm = realmParameter
        return [
            Operation(
                method: "get", path: "/v1/realms", summary: "The served realms the token may use, with schema versions and counts",
                success: [Self.json(200, "The realms", Schemas.object(required: ["realms"], [("realms", Schemas.array(Schemas.object(
                    required: ["name", "schemaVersion", "counts"],
                    [("name", Schemas.string), ("schemaVersion", Schemas.integer), ("counts", Schemas.map(Schemas.integer))])))]))]),
            Operation(
                method: "get", path: "/v1/realms/{realm}/schema", summary: "The schema as kura schema prints it, or as JSON with Accept: application/json",
                parameters: [realm],
                success: [Operation.Answer(status: 200, description: "The schema", content: [("application/yaml", Self.schemaFile), ("application/json", Self.schemaFile)])],
                problems: [404]),
            Operation(
                method: "post", path: "/v1/realms/{realm}/import", summary: "Imports the body, parsed and written as it arrives",
                parameters: [realm, typeQuery, Self.modeQuery, .query("onError", Schemas.oneOf(["stop", "skip"]), "stop (default: atomic) or skip (set a bad document aside)"),
                             .query("batchSize", Schemas.integer(from: 1), "With onError=skip, documents per committed batch (default 10000)"),
                             Self.flag("dryRun", "Check and count, write nothing"),
                             Self.flag("skipExisting", "Leave out, counted as unchanged, documents whose object the realm holds; with mode insert only (400 with another)"),
                             .query("dateStrategy", Schemas.oneOf(MappingOptions.DateStrategy.allCases.map(\.rawValue)), "How dates may be written (default strict: {\"$date\": …})"),
                             .query("dataStrategy", Schemas.oneOf(MappingOptions.DataStrategy.allCases.map(\.rawValue)), "How binary data may be written (default strict: {\"$binary\": …})"),
                             Self.flag("rejectUnknownKeys", "Refuse keys the schema does not define (default: ignore and count)"),
                             Self.flag("percentEncodeMapKeys", "Store map keys with '.' or a leading '$' percent-encoded")],
                body: Self.documentMedia.map { ($0, Self.importBody) },
                success: [Self.json(200, "What the import did", Schemas.object(
                    required: ["documents", "types", "rejected", "rejectedCount", "rejectedTypes", "unknownKeys"],
                    [("documents", Schemas.integer), ("types", Schemas.map(Self.counts)),
                     ("rejected", Schemas.array(Schemas.object(required: ["document", "errors"], [
                         ("document", Schemas.object(required: ["line", "column"], [("line", Schemas.integer), ("column", Schemas.integer)])),
                         ("errors", Schemas.array(Schemas.string)),
                     ]))),
                     ("rejectedCount", Schemas.integer), ("rejectedTypes", Schemas.map(Schemas.integer)),
                     ("unknownKeys", Schemas.map(Schemas.integer)), ("dryRun", Schemas.boolean)]))],
                problems: [400, 404, 409, 422]),
            Operation(
                method: "get", path: "/v1/realms/{realm}/imports", summary: "The imports running now: bytes and documents so far, documents per second",
                parameters: [realm],
                success: [Self.json(200, "The running imports", Schemas.object(required: ["imports"], [("imports", Schemas.array(Schemas.object(
                    required: ["id", "type", "bytes", "documents", "seconds", "documentsPerSecond"],
                    [("id", Schemas.integer), ("type", Schemas.nullable(Schemas.string)), ("bytes", Schemas.integer),
                     ("documents", Schemas.integer), ("seconds", Schemas.number), ("documentsPerSecond", Schemas.number)])))]))],
                problems: [404]),
            Operation(
                method: "get", path: "/v1/realms/{realm}/export", summary: "The documents kura export writes with the same options, streamed",
                parameters: [realm, typeQuery, Self.whereQuery, Self.argsQuery, Self.sortQuery,
                             .query("limit", Schemas.integer(from: 0), "At most this many documents"),
                             .query("format", Schemas.oneOf(["json", "jsonl", "yaml"]), "The format (absent: the first of Accept's, else json)"),
                             Self.flag("pretty", "Indented JSON"),
                             Self.flag("followLinks", "After the selected objects, every object they link to, transitively, each once (as kura copy takes them); needs type")],
                success: [Operation.Answer(status: 200, description: "The documents (with followLinks, Kura-Selected-Count says how many of them, from the first, are the selection)", content: [
                    ("application/json", Schemas.array(Schemas.object([], additional: nil))), ("application/x-ndjson", Schemas.string),
                    // A stream of YAML documents, one per "---": no one value a JSON Schema could describe.
                    ("application/yaml", nil),
                ], headers: [("Kura-Selected-Count", false)])],
                problems: [400, 404, 422]),
            Operation(
                method: "post", path: "/v1/copy", summary: "Copies objects between served realms, as kura copy does",
                body: [("application/json", copyBody)],
                success: [Self.json(200, "What the copy did", Schemas.object(required: ["types"], [("types", Schemas.map(Self.counts))]))],
                problems: [400, 404, 409, 422]),
            Operation(
                method: "post", path: "/v1/realms/{realm}/migrate", summary: "Migrates the realm to the schema in the body (admin scope)",
                parameters: [realm, Self.flag("dryRun", "Check the data against the plan, write nothing")],
                body: [("application/yaml", Self.schemaFile), ("application/json", Self.schemaFile)],
                success: [Self.json(200, "The plan, then the result", Schemas.object(required: ["realm", "plan", "result"], [
                    ("realm", Schemas.string),
                    ("plan", Schemas.object(required: ["fromVersion", "toVersion", "changes", "text"], [
                        ("fromVersion", Schemas.integer), ("toVersion", Schemas.integer),
                        ("changes", Schemas.array(Schemas.object(required: ["path", "summary"], [("path", Schemas.string), ("summary", Schemas.string)]))),
                        ("text", Schemas.string),
                    ])),
                    ("result", Schemas.object(required: ["migrated", "message"], [("migrated", Schemas.boolean), ("message", Schemas.string)])),
                ]))],
                problems: [400, 404, 409, 422]),
            Operation(
                method: "get", path: "/v1/realms/{realm}/check", summary: "kura check's report as JSON (200 whether or not the realm is healthy)",
                parameters: [realm], success: [Self.json(200, "The report", Schemas.object([], additional: nil))], problems: [404]),
            Operation(
                method: "get", path: "/v1/realms/{realm}/changes", summary: "Server-sent events, one change event per committed write transaction from any process",
                parameters: [realm, .header("Last-Event-ID", Schemas.string(matching: "^[ \\t]*[0-9]*[ \\t]*$"), "Resume after this version: every later commit first, then live ones (empty: from now)"),
                             .query("follow", Schemas.boolean, "false: send the commits there are and end, instead of following live ones (default true)")],
                success: [Operation.Answer(
                    status: 200, description: "event: change, id: the version, data: {\"version\", \"types\": {T: {\"inserted\", \"modified\", \"deleted\"}}}",
                    content: [("text/event-stream", Schemas.object(required: ["event", "data"], [
                        ("event", Schemas.oneOf(["change", "pruned"])), ("id", Schemas.string(matching: "^[0-9]+$")), ("data", Schemas.string),
                    ]))])],
                problems: [400, 404, 410]),
            Operation(
                method: "get", path: "/healthz", summary: "Liveness, and whether a worker is free",
                success: [
                    Self.json(200, "Workers are free", Self.health),
                    Operation.Answer(status: 503, description: "Every worker is busy (saturated)", content: [("application/json", Self.health)], headers: [("Retry-After", true)]),
                ],
                isPublic: true, usesWorkers: false),
            Operation(
                method: "get", path: "/readyz", summary: "Readiness: every realm opens",
                success: [Self.json(200, "Ready", Schemas.object(required: ["status", "realms"], [("status", Schemas.oneOf(["ready"])), ("realms", Schemas.integer)]))],
                isPublic: true),
            Operation(
                method: "get", path: "/metrics", summary: "Prometheus metrics (read scope)",
                success: [Operation.Answer(status: 200, description: "Prometheus text", content: [("text/plain", Schemas.string)])]),
            Operation(
                method: "get", path: "/openapi.json", summary: "This description: with a token, of the realms it may use as they are now",
                success: [Self.json(200, "OpenAPI 3.1", Schemas.object(required: ["openapi", "paths"], [], additional: nil))],
                isPublic: true),
            Operation(
                method: "get", path: "/", summary: "Kura Studio, the web console (it uses the API above with the user's token)",
                success: [Operation.Answer(status: 200, description: "The page", content: [("text/html", Schemas.string)])],
                isPublic: true, usesWorkers: false),
            Operation(
                method: "get", path: "/studio/{file}", summary: "Kura Studio's scripts and style sheet",
                parameters: [.path("file", Schemas.oneOf(StudioAssets.files.keys.sorted()), "The file", example: JSONText.string("app.js"))],
                success: [Operation.Answer(status: 200, description: "The file", content: [("text/javascript", Schemas.string), ("text/css", Schemas.string)])],
                problems: [404], isPublic: true, usesWorkers: false),
        ]
    }

    /// `{"source", "destination", "type", "where", "args", "mode"}`: two different realms.
    private var copyBody: String {
        let fields = [
            // What is optional may be null as well as left out.
            ("source", realmParameter.schema), ("destination", realmParameter.schema), ("type", Schemas.nullable(typeQuery.schema)),
            ("where", Schemas.nullable(Schemas.text)), ("args", Schemas.nullable(Schemas.array(ValueSchemas.argument))),
            ("mode", Schemas.nullable(Self.modeQuery.schema)),
        ]
        let sameRealm = realms.map { realm in
            let name = JSONText.object([("const", JSONText.string(realm.name))])
            return JSONText.object([("required", #"["source","destination"]"#), ("properties", JSONText.object([("source", name), ("destination", name)]))])
        }
        return JSONText.object([
            ("type", JSONText.string("object")), ("required", #"["source","destination"]"#), ("properties", JSONText.object(fields)),
            ("additionalProperties", "false"), ("not", JSONText.object([("anyOf", JSONText.array(sameRealm))])),
        ])
    }

    /// A schema file (docs/schema.md), as JSON or YAML.
    private static let schemaFile = Schemas.object(required: ["types"], [
        ("schemaVersion", Schemas.integer(from: 0)),
        ("types", Schemas.map(Schemas.object(required: ["properties"], [
            ("properties", Schemas.map(Schemas.anyOf([Schemas.string, Schemas.object([], additional: nil)]))),
            ("primaryKey", Schemas.string), ("embedded", Schemas.boolean), ("asymmetric", Schemas.boolean),
        ]))),
    ])

    /// An import's documents: one, or an array of them (each led by "$type" without the `type`
    /// parameter, as a whole-realm export writes them).
    private static let importBody = Schemas.anyOf([
        Schemas.array(Schemas.object([], additional: nil)), Schemas.object([], additional: nil),
    ])

    private static let health = Schemas.object(required: ["status", "workers"], [
        ("status", Schemas.oneOf(["ok", "saturated"])),
        ("workers", Schemas.object(required: ["running", "waiting", "limit"], [("running", Schemas.integer), ("waiting", Schemas.integer), ("limit", Schemas.integer)])),
    ])
}
