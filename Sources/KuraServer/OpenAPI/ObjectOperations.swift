import Kura

/// The operations on objects, as PostgREST lists tables: for each served realm and top-level type
/// its own paths (`/v1/realms/zoo/objects/Person/{key}`), with the type's document schemas and
/// keys of objects that exist as examples. Without realms to show (a request without a token on
/// a server that has tokens) they are the templates `/v1/realms/{realm}/objects/{type}…`.
struct ObjectOperations {
    let realms: [RealmSnapshot]

    typealias Schemas = OpenAPISchemas
    typealias Operation = OpenAPIOperation
    typealias Parameter = OpenAPIOperation.Parameter

    /// How `{key}` names an object: its address, as docs/service.md describes it.
    static let keyDescription = "The object's primary key as export writes it, percent-encoded (1, never 01 or +1); "
        + "for a type without a primary key, its object id: a positive integer, never reused in its type, as GET …/changes reports it "
        + "and urls, Content-Location, Location and \"$url\" give it. A type has one form or the other, so they never meet."

    private static let nestedURLs = ServiceOperations.flag(
        ObjectRoutes.nestedURLsParameter, "Each nested object without a primary key carries its URL under \"$url\" (import ignores it)")
    private static let limit = Parameter.query(
        "limit", Schemas.integer(from: 1, to: ObjectRoutes.maxLimit), "Objects per page, 1 to \(ObjectRoutes.maxLimit) (default \(ObjectRoutes.defaultLimit))")
    private static let ifMatch = Parameter.header("If-Match", Schemas.entityTags, "412 unless the object's ETag is listed (* matches an existing object)")

    var operations: [OpenAPIOperation] {
        guard !realms.isEmpty else {
            let realm = Parameter.path("realm", Schemas.string, "A served realm's name")
            let type = Parameter.path("type", Schemas.string, "A top-level type of the realm")
            return operations(base: "/v1/realms/{realm}/objects/{type}", [realm, type], key: Schemas.string, keyExample: nil, documents: nil)
        }
        return realms.flatMap { realm in
            let schemas = DocumentSchemas(realm: realm.name, schema: realm.schema)
            return realm.schema.types.filter { !$0.isEmbedded }.flatMap { type in
                let keys = realm.samples[type.name]?.keys ?? []
                let base = "/v1/realms/\(ObjectAddress.encode(realm.name))/objects/\(ObjectAddress.encode(type.name))"
                let documents = TypeDocuments(type: type, schemas: schemas, samples: realm.samples[type.name]?.documents ?? [])
                return operations(base: base, [], key: Self.keySchema(of: type), keyExample: keys.first.map { Self.keyJSON($0, of: type) }, documents: documents)
            }
        }
    }

    /// The schemas of one type's documents, with documents of it that exist.
    private struct TypeDocuments {
        let type: ObjectSchema
        let schemas: DocumentSchemas
        let samples: [String]

        /// The first object's document, as a body that writes something real.
        var example: String? { samples.first }

        var output: String { Schemas.ref(schemas.outputName(type.name)) }
        func input(_ write: DocumentSchemas.Write) -> String { Schemas.ref(schemas.inputName(type.name, write)) }
        var hasPrimaryKey: Bool { type.primaryKey != nil }
    }

    /// `{key}`'s schema: the primary key's type, or a positive object id.
    private static func keySchema(of type: ObjectSchema) -> String {
        switch type.primaryKeyProperty?.type.nonOptional {
        case nil: Schemas.integer(from: 1)
        case .int?: Schemas.int64
        case .uuid?: Schemas.string(matching: ValueSchemas.uuidPattern)
        case .objectId?: Schemas.string(matching: ValueSchemas.objectIdPattern)
        default: Schemas.string
        }
    }

    /// A URL key as the JSON value of `{key}`'s schema.
    private static func keyJSON(_ key: String, of type: ObjectSchema) -> String {
        switch type.primaryKeyProperty?.type.nonOptional {
        case nil, .int?: key
        default: JSONText.string(key)
        }
    }

    private func operations(base: String, _ path: [Parameter], key: String, keyExample: String?, documents: TypeDocuments?) -> [OpenAPIOperation] {
        let keyParameter = Parameter.path("key", key, Self.keyDescription, example: keyExample)
        let one = path + [keyParameter]
        let output = documents?.output ?? Schemas.object([], additional: nil)
        let write = [ServiceOperations.documentMedia[0], ServiceOperations.documentMedia[2]]
        func body(_ form: DocumentSchemas.Write) -> [(media: String, schema: String)] {
            write.map { ($0, documents?.input(form) ?? Schemas.object([], additional: nil)) }
        }
        let etag = [("ETag", true)]
        func document(_ status: Int, _ description: String, headers: [(String, Bool)]) -> Operation.Answer {
            Operation.Answer(status: status, description: description, content: [("application/json", output)], headers: headers)
        }
        let page = Schemas.object(required: ["objects", "urls", "count", "next"], [
            ("objects", Schemas.array(output)), ("urls", Schemas.array(Schemas.string)), ("count", Schemas.integer),
            ("next", Schemas.nullable(Schemas.string)),
        ])
        var list = [
            Operation(
                method: "get", path: base, summary: "A page of objects, with a cursor to the next",
                parameters: path + [ServiceOperations.whereQuery, ServiceOperations.argsQuery, ServiceOperations.sortQuery, Self.limit,
                                    .query("after", Schemas.text, "The opaque cursor of a page's next link"), Self.nestedURLs],
                success: [Operation.Answer(status: 200, description: "The page", content: [("application/json", page)])],
                problems: [400, 404, 422]),
            Operation(
                method: "post", path: base, summary: "Creates one object (or, under another mode, writes the one its key names)",
                parameters: path + [ServiceOperations.modeQuery], body: body(.create), bodyExample: documents?.example,
                success: [document(201, "Created, with its address in Location", headers: etag + [("Location", true)]),
                          document(200, "An existing object written (a mode other than insert)", headers: etag)],
                problems: [400, 404, 409, 422]),
            Operation(
                method: "delete", path: base, summary: "Deletes the objects a predicate selects",
                parameters: path + [.query("where", Schemas.text, "Required; TRUEPREDICATE deletes all", required: true), ServiceOperations.argsQuery],
                success: [Operation.Answer(status: 200, description: "How many were deleted", content: [
                    ("application/json", Schemas.object(required: ["deleted"], [("deleted", Schemas.integer)])),
                ])],
                problems: [400, 404, 422]),
            Operation(
                method: "get", path: base + "/{key}", summary: "One object, with an ETag and its address in Content-Location",
                parameters: one + [Self.nestedURLs, .header("If-None-Match", Schemas.entityTags, "304 when one of these ETags matches")],
                success: [document(200, "The object as export writes it", headers: etag + [("Content-Location", true)]),
                          Operation.Answer(status: 304, description: "Not modified", headers: etag + [("Content-Location", true)])],
                problems: [400, 404]),
            Operation(
                method: "get", path: base + "/{key}/backlinks", summary: "The objects whose links reach the object, per linking property",
                parameters: one + [Self.limit],
                success: [Operation.Answer(status: 200, description: "The backlinks", content: [("application/json", Schemas.object(
                    required: ["backlinks"], [("backlinks", Schemas.array(Schemas.object(
                        required: ["type", "property", "count", "urls"],
                        [("type", Schemas.string), ("property", Schemas.string), ("count", Schemas.integer), ("urls", Schemas.array(Schemas.string))])))]))])],
                problems: [400, 404]),
        ]
        if documents?.hasPrimaryKey ?? true {
            list.append(Operation(
                method: "put", path: base + "/{key}", summary: "Replaces the object, or creates it: the URL's key wins",
                parameters: one + [Self.ifMatch], body: body(.replace),
                success: [document(200, "Replaced", headers: etag), document(201, "Created, with its address in Location", headers: etag + [("Location", true)])],
                problems: documents == nil ? [400, 404, 405, 409, 412, 422] : [400, 404, 409, 412, 422]))
        }
        list += [
            Operation(
                method: "patch", path: base + "/{key}", summary: "Sets the properties the body gives, keeping the rest",
                parameters: one + [Self.ifMatch], body: body(.update),
                success: [document(200, "Updated", headers: etag)],
                problems: [400, 404, 409, 412, 422]),
            Operation(
                method: "delete", path: base + "/{key}", summary: "Deletes the object",
                parameters: one + [.header("If-Match", Schemas.entityTags, "412 unless the object's ETag is listed")],
                success: [Operation.Answer(status: 204, description: "Deleted")],
                problems: [400, 404, 412]),
        ]
        return list
    }
}
