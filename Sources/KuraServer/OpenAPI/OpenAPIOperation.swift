/// One operation of the OpenAPI document: a method on a path (in OpenAPI's `{name}` form), its
/// parameters, request body and every answer it can give. Schemas are JSON text.
struct OpenAPIOperation {
    /// A path, query or header parameter.
    struct Parameter {
        let name: String
        let location: String
        let schema: String
        let description: String
        var isRequired = false
        /// A value that reaches something real (an existing realm, type or key), as JSON text.
        var example: String?
        /// Whether the value is JSON text of `schema` (OpenAPI's `content`) rather than plain text.
        var isJSON = false

        static func path(_ name: String, _ schema: String, _ description: String, example: String? = nil) -> Parameter {
            Parameter(name: name, location: "path", schema: schema, description: description, isRequired: true, example: example)
        }

        static func query(_ name: String, _ schema: String, _ description: String, required: Bool = false) -> Parameter {
            Parameter(name: name, location: "query", schema: schema, description: description, isRequired: required)
        }

        static func header(_ name: String, _ schema: String, _ description: String) -> Parameter {
            Parameter(name: name, location: "header", schema: schema, description: description)
        }

        /// A query parameter whose value is JSON text.
        static func jsonQuery(_ name: String, _ schema: String, _ description: String) -> Parameter {
            Parameter(name: name, location: "query", schema: schema, description: description, isJSON: true)
        }

        var json: String {
            var members = [
                ("name", JSONText.string(name)), ("in", JSONText.string(location)), ("required", isRequired ? "true" : "false"),
                ("description", JSONText.string(description)),
                isJSON ? ("content", JSONText.object([("application/json", JSONText.object([("schema", schema)]))])) : ("schema", schema),
            ]
            if let example { members.append(("example", example)) }
            return JSONText.object(members)
        }
    }

    /// One status with its description, content (media type to schema, nil for content no JSON
    /// Schema describes, such as a stream of YAML documents) and headers (name to whether the
    /// header is always sent).
    struct Answer {
        let status: Int
        let description: String
        var content: [(media: String, schema: String?)] = []
        var headers: [(name: String, isRequired: Bool)] = []
    }

    let method: String
    let path: String
    let summary: String
    var parameters: [Parameter] = []
    /// The request body's media types with their schemas; none for a route without a body.
    var body: [(media: String, schema: String)] = []
    /// A body that reaches something real (a document of an object that exists), as JSON text.
    var bodyExample: String?
    var success: [Answer]
    /// Problem statuses beyond the ones `OpenAPIProblems` adds to every operation of its kind.
    var problems: [Int] = []
    /// Whether the route needs no token.
    var isPublic = false
    /// Whether the route works on realms through the server's bounded workers (so may be busy).
    var usesWorkers = true

    /// The operation object.
    var json: String {
        var responses = success.map { answer in (String(answer.status), Self.answerJSON(answer)) }
        for status in OpenAPIProblems.statuses(of: self) {
            responses.append((String(status), JSONText.object([("$ref", JSONText.string("#/components/responses/Problem\(status)"))])))
        }
        var members = [
            ("operationId", JSONText.string(operationID)), ("summary", JSONText.string(summary)),
            ("parameters", JSONText.array(parameters.map(\.json))),
        ]
        if !body.isEmpty {
            members.append(("requestBody", JSONText.object([
                ("required", "true"),
                ("content", JSONText.object(body.map { body in
                    JSONText.object([("schema", body.schema)] + (bodyExample.map { [("example", $0)] } ?? []))
                }.enumerated().map { (body[$0.offset].media, $0.element) })),
            ])))
        }
        members.append(("responses", JSONText.object(responses)))
        if isPublic { members.append(("security", "[]")) }
        return JSONText.object(members)
    }

    /// A name unique in the document, made of the method and the path's literal parts.
    var operationID: String {
        let parts = path.split(separator: "/").map { part in
            part.hasPrefix("{") ? "by-" + part.dropFirst().dropLast() : String(part)
        }
        return ([method] + parts).joined(separator: "-")
    }

    private static func answerJSON(_ answer: Answer) -> String {
        var members = [("description", JSONText.string(answer.description))]
        var headers = [("X-Request-Id", JSONText.object([("$ref", JSONText.string("#/components/headers/X-Request-Id"))]))]
        for header in answer.headers {
            headers.append((header.name, JSONText.object([("required", header.isRequired ? "true" : "false"), ("schema", OpenAPISchemas.string)])))
        }
        members.append(("headers", JSONText.object(headers)))
        if !answer.content.isEmpty {
            members.append(("content", JSONText.object(answer.content.map { entry in
                (entry.media, JSONText.object(entry.schema.map { [("schema", $0)] } ?? []))
            })))
        }
        return JSONText.object(members)
    }
}
