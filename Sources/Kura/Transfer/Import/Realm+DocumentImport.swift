/// One document written as an import writes it, inside a write transaction the caller holds.
extension Realm {
    /// Maps `node` as a `type` document with the strict rules of an import and writes it under `mode`,
    /// in the write transaction the caller has open (so that it can check the object first).
    ///
    /// Under `.update` and `.modified` the properties the document leaves out keep their values, as an
    /// import in those modes does; under `.replace` they are reset; under `.error` an existing primary
    /// key is refused. A nested `{"$ref": id}` finds an `"$id"` of the same document. Throws
    /// `KuraError` for a document that does not fit the schema, and `KuraError.transfer(.badDocument)`
    /// with `file` and the document's position for one the realm refuses, the `KuraError` (such as
    /// `.duplicatePrimaryKey`) as its `underlying` error.
    @discardableResult
    public func importDocument(
        _ node: DocumentNode, as type: String, mode: UpdatePolicy = .error, file: String, mapping: MappingOptions = MappingOptions()
    ) throws -> ImportedDocument {
        _ = try requireTransaction()
        var options = mapping
        options.defersMissingProperties = mode == .update || mode == .modified
        let mapped = try DocumentMapper(schema: schema, options: options, file: file).map(node, as: type)
        let scope = ReferenceScope()
        scope.position = node.position
        let ref: ObjectRef
        do {
            ref = try create(type, mapped: mapped.object, update: mode, references: scope, path: "$")
        } catch let error as KuraError where error.code.domain == .store && (!error.isStoreFailure || error.code == .store(.counterExhausted)) {
            throw KuraError.transfer(.badDocument, error.message, file: file, position: node.position, underlying: error)
        }
        if let unresolved = scope.firstUnresolved {
            throw KuraError.transfer(.badDocument, unresolved.message, file: file, position: unresolved.position)
        }
        let created = !scope.isFromBeforeInput(ref)
        return ImportedDocument(object: DynamicObject(realm: self, ref: ref), unknownKeys: mapped.unknownKeys, created: created)
    }
}

extension Realm {
    /// Maps `node` as a document of `object`'s type with the strict rules of an import and sets the
    /// properties it gives on `object`, leaving the rest (an import's `.update` mode), in the write
    /// transaction the caller has open: how an object of a type without a primary key, which no
    /// document can name, is updated.
    ///
    /// Throws as `importDocument(_:as:mode:file:mapping:)` does; `KuraError.store(.typeMismatch)` for an
    /// object whose type has a primary key (a document names it) and `.objectDeleted` for an object
    /// no longer stored, each inside a `KuraError`.
    @discardableResult
    public func importDocument(
        _ node: DocumentNode, into object: DynamicObject, file: String, mapping: MappingOptions = MappingOptions()
    ) throws -> ImportedDocument {
        _ = try requireTransaction()
        var options = mapping
        options.defersMissingProperties = true
        options.documentIsForExistingObject = true
        let mapped = try DocumentMapper(schema: schema, options: options, file: file).map(node, as: object.type)
        let scope = ReferenceScope()
        scope.position = node.position
        do {
            try update(object.ref, mapped: mapped.object, references: scope, path: "$")
        } catch let error as KuraError where error.code.domain == .store && (!error.isStoreFailure || error.code == .store(.counterExhausted)) {
            throw KuraError.transfer(.badDocument, error.message, file: file, position: node.position, underlying: error)
        }
        if let unresolved = scope.firstUnresolved {
            throw KuraError.transfer(.badDocument, unresolved.message, file: file, position: unresolved.position)
        }
        return ImportedDocument(object: object, unknownKeys: mapped.unknownKeys, created: false)
    }
}

/// What `Realm.importDocument(_:as:mode:file:mapping:)` wrote.
public struct ImportedDocument {
    /// The object created or updated.
    public let object: DynamicObject
    /// Keys the schema does not define, which were ignored.
    public let unknownKeys: Int
    /// Whether the document made a new object, rather than updating or finding one already there.
    public let created: Bool
}
