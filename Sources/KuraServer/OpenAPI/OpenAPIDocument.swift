/// The OpenAPI 3.1 description of every route the server answers, served at `GET /openapi.json`
/// and made for each request from the realms as they are then: their types as JSON Schemas of
/// their documents, their names, types and keys as the values parameters take.
///
/// It is written here rather than derived from the router, which knows paths and methods but not
/// parameters or bodies; a test compares the two so that neither drifts from the other, and
/// another runs schemathesis against the server with it.
struct OpenAPIDocument {
    /// The realms shown, as they are now; none for the document of the route templates alone.
    let realms: [RealmSnapshot]

    /// Every operation: the realms' and the service's, then those of objects.
    var operations: [OpenAPIOperation] {
        ServiceOperations(realms: realms).operations + ObjectOperations(realms: realms).operations
    }

    /// The document as JSON text.
    var json: String {
        var paths: [(path: String, operations: [(String, String)])] = []
        for operation in operations {
            if let index = paths.firstIndex(where: { $0.path == operation.path }) {
                paths[index].operations.append((operation.method, operation.json))
            } else {
                paths.append((operation.path, [(operation.method, operation.json)]))
            }
        }
        var schemas = [("Problem", OpenAPIProblems.schema), (ValueSchemas.mixedName, ValueSchemas.mixed)]
        for realm in realms { schemas += DocumentSchemas(realm: realm.name, schema: realm.schema).components }
        let requestID = JSONText.object([
            ("description", JSONText.string("The client's X-Request-Id (printable ASCII, up to 200 bytes), or a new UUID")),
            ("required", "true"), ("schema", OpenAPISchemas.string),
        ])
        return JSONText.object([
            ("openapi", JSONText.string("3.1.0")),
            ("info", JSONText.object([
                ("title", JSONText.string("Kura")), ("version", JSONText.string("1")),
                ("description", JSONText.string(Self.description)),
            ])),
            ("paths", JSONText.object(paths.map { ($0.path, JSONText.object($0.operations)) })),
            ("components", JSONText.object([
                ("schemas", JSONText.object(schemas)),
                ("responses", JSONText.object(OpenAPIProblems.responses)),
                ("headers", JSONText.object([("X-Request-Id", requestID)])),
                ("securitySchemes", JSONText.object([("bearer", JSONText.object([
                    ("type", JSONText.string("http")), ("scheme", JSONText.string("bearer")),
                ]))])),
            ])),
            ("security", JSONText.array([JSONText.object([("bearer", "[]")])])),
        ])
    }

    private static let description = "Realms served by kura serve. With a bearer token the description names the realms the "
        + "token may use, with their types' documents and the keys of objects that exist; without one, the route templates. "
        + "A method a path does not list is answered 405 with Allow."
}
