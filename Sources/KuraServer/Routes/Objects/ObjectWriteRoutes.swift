import Hummingbird
import Kura

/// Writes of one object: `POST …/objects/{type}` creates (query `mode`, default `insert`: 409 when
/// the primary key exists), `PUT …/objects/{type}/{key}` replaces (creating when there is none) and
/// `PATCH` sets the properties the body gives, leaving the rest (the import's `update` mode).
///
/// The body is one JSON or YAML document, mapped with the import's strict rules. The key in the URL
/// wins: a body without the primary key gets it from the URL, one with a different key is 422. PUT
/// and PATCH honour `If-Match`; each answer holds the document as export writes it, its `ETag` and
/// (for a created object) its `Location`. Objects of a type without a primary key are created by
/// POST (their `Location` names them by object id) and patched at that address, never replaced:
/// PUT cannot create an object whose id only the realm gives.
struct ObjectWriteRoutes: RouteSet {
    let realms: ServedRealms
    /// Seconds a write waits for another writer that makes no progress (`server.writeWait`).
    let writeWait: Double

    /// What a write did: the object's URL key and document, and whether it was created.
    private struct Written: Sendable {
        let key: String
        let document: String
        let created: Bool
    }

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.post("realms/:realm/objects/:type") { request, context in
            let name = try context.realm()
            let typeName = try context.parameters.decoded("type")
            let mode = try Self.mode(QueryParameters(request).text("mode")) ?? .error
            try await checkType(typeName, in: name)
            let node = try await SingleDocumentBody.read(request, limits: context.bodyLimits)
            let written = try await write(in: name, typeName) { realm, type in
                let imported = try Self.importing { try realm.importDocument(node, as: type.name, mode: mode, file: "body") }
                let object = imported.object
                return Written(
                    key: try ObjectAddress.key(of: object, type: type), document: try ObjectAddress.document(of: object, in: realm),
                    created: imported.created)
            }
            return Self.response(written, realm: name, type: typeName)
        }
        group.put("realms/:realm/objects/:type/:key") { request, context in
            try await replace(request, context, mode: .replace)
        }
        group.patch("realms/:realm/objects/:type/:key") { request, context in
            try await replace(request, context, mode: .update)
        }
    }

    /// PUT (`mode` `.replace`) and PATCH (`.update`) of the object the URL names.
    private func replace(_ request: Request, _ context: KuraRequestContext, mode: UpdatePolicy) async throws -> Response {
        let name = try context.realm()
        let typeName = try context.parameters.decoded("type")
        let keyText = try context.parameters.decoded("key")
        let condition = try ETag.condition(.ifMatch, of: request)
        let checked = try await checkType(typeName, in: name)
        // Refused before the body is read: no body could make the method right.
        if mode == .replace && checked.primaryKey == nil { throw Self.noReplace(checked) }
        let body = try await SingleDocumentBody.read(request, limits: context.bodyLimits)
        let written = try await write(in: name, typeName) { realm, type in
            guard type.primaryKey != nil else {
                guard mode == .update else { throw Self.noReplace(type) }
                return try Self.patch(body, keyText: keyText, of: type, condition: condition, in: realm, realmName: name)
            }
            let key = try PrimaryKeyText(keyText, of: type)
            let node = try KeyedDocument.node(body, key: key, type: type)
            let existing = try realm.object(ofType: type.name, forPrimaryKey: key.value)
            try IfMatchPrecondition.check(condition, on: existing, in: realm, named: "\(type.name) '\(MessageText.shown(keyText))'")
            if existing == nil && mode == .update {
                throw Problem.notFound("unknown-key", "realm '\(name)' has no \(type.name) with key '\(MessageText.shown(keyText))': PUT or POST creates one")
            }
            let object = try Self.importing { try realm.importDocument(node, as: type.name, mode: mode, file: "body").object }
            return Written(key: keyText, document: try ObjectAddress.document(of: object, in: realm), created: existing == nil)
        }
        return Self.response(written, realm: name, type: typeName)
    }

    /// The methods an object's address refuses, given its path segments: PUT when its type has no
    /// primary key (none for any other path, or a realm or type that is not there).
    static func refusedMethods(at segments: [String], in realms: ServedRealms) async -> Set<String> {
        guard segments.count == 6, segments[0] == "v1", segments[1] == "realms", segments[3] == "objects" else { return [] }
        let keyless = try? await realms.work.run {
            try realms.reading(segments[2]) { realm in realm.schema[type: segments[4]].map { $0.primaryKey == nil } ?? false }
        }
        return keyless == true ? ["PUT"] : []
    }

    /// 405 for PUT on a type without a primary key, with the methods its objects take.
    private static func noReplace(_ type: ObjectSchema) -> Problem {
        Problem(
            status: 405, code: "method-not-allowed",
            detail: "type '\(type.name)' has no primary key: its objects cannot be replaced by URL, only patched, created by POST and deleted",
            headers: [("Allow", "DELETE, GET, HEAD, PATCH")])
    }

    /// PATCH of an object of a type without a primary key, named by its object id: the body's
    /// properties are set on it, the rest kept.
    private static func patch(
        _ body: DocumentNode, keyText: String, of type: ObjectSchema, condition: String?, in realm: Realm, realmName: String
    ) throws -> Written {
        let existing = try? ObjectAddress.find(keyText, of: type, in: realm, realmName: realmName)
        let name = "\(type.name) '\(MessageText.shown(keyText))'"
        try IfMatchPrecondition.check(condition, on: existing, in: realm, named: name)
        let object = try existing ?? ObjectAddress.find(keyText, of: type, in: realm, realmName: realmName)
        _ = try importing { try realm.importDocument(body, into: object, file: "body") }
        return Written(key: keyText, document: try ObjectAddress.document(of: object, in: realm), created: false)
    }

    /// 404 for an unknown realm or type before the body is read, looked up in a pooled realm as
    /// the import and export routes do (opening one would read and parse its schema again).
    @discardableResult
    private func checkType(_ typeName: String, in name: String) async throws -> ObjectSchema {
        let realms = self.realms
        return try await realms.work.run {
            try realms.reading(name) { realm in try ServedRealms.type(typeName, in: realm, realmName: name) }
        }
    }

    /// Runs `body` in one write transaction of realm `name`, waiting up to `writeWait` for its writer.
    private func write(
        in name: String, _ typeName: String, _ body: @escaping @Sendable (Realm, ObjectSchema) throws -> Written
    ) async throws -> Written {
        let realms = self.realms
        let writeWait = self.writeWait
        return try await realms.work.run {
            let realm = try realms.open(name, writeWait: writeWait)
            let type = try ServedRealms.type(typeName, in: realm, realmName: name)
            return try realm.write { try body(realm, type) }
        }
    }

    /// 201 with `Location` for a created object, 200 otherwise; the document and its `ETag`.
    private static func response(_ written: Written, realm: String, type: String) -> Response {
        var headers = [("ETag", ETag.of(written.document))]
        if written.created { headers.append(("Location", ObjectAddress.path(realm: realm, type: type, key: written.key))) }
        return TextResponse.text(
            written.document, contentType: "application/json", status: written.created ? .created : .ok, headers: headers)
    }

    /// Runs an import of one document, turning an existing primary key into 409 `exists`, and a
    /// type whose auto-increment keys are used up into 409 `keys-exhausted` (the realm's state,
    /// not the document, is what refuses it).
    private static func importing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as KuraError where error.code.domain == .transfer {
            switch (error.underlying as? KuraError)?.code {
            case .store(.duplicatePrimaryKey)?: throw Problem(status: 409, code: "exists", detail: error.description)
            case .store(.counterExhausted)?: throw Problem(status: 409, code: "keys-exhausted", detail: error.description)
            default: throw error
            }
        }
    }

    /// The import mode `text` names, or `nil` when absent: the one reading of `mode` for every
    /// route that takes one (object writes, import, copy).
    static func mode(_ text: String?) throws(Problem) -> UpdatePolicy? {
        guard let text else { return nil }
        guard let mode = UpdatePolicy(modeName: text) else {
            throw Problem.badParameter("mode '\(MessageText.shown(text))' is not one of \(UpdatePolicy.modeNames.joined(separator: ", "))")
        }
        return mode
    }
}
