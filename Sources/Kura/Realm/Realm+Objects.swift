/// Creating, finding and deleting objects by type name.
extension Realm {
    /// Creates an object of `type` from a `.map` of property values, or updates the object with the
    /// same primary key under `update`. Nested maps create or update linked and embedded objects.
    ///
    /// With `references`, a nested value `{"$ref": id}` links to the object written from the value
    /// carrying `"$id": id` in the same scope, before or after this one (see `ReferenceScope`).
    /// `path` names where the value came from in error messages, such as `$[12]`; the type name by default.
    @discardableResult
    public func create(
        _ type: String, value: Value, update: UpdatePolicy = .error, references: ReferenceScope? = nil, path: String? = nil
    ) throws -> DynamicObject {
        let ref = try writeTopLevel(references: references) { writer in
            try writer.create(type, value, policy: update, path: path ?? type)
        }
        return DynamicObject(realm: self, ref: ref)
    }

    /// Creates (or updates, under `update`) an object mapped from a document, as `create(_:value:…)`.
    @discardableResult
    func create(_ type: String, mapped object: MappedObject, update: UpdatePolicy, references: ReferenceScope?, path: String) throws
        -> ObjectRef
    {
        try writeTopLevel(references: references) { writer in
            try writer.create(type, object, policy: update, path: path)
        }
    }

    /// Sets the properties the mapped `object` gives on the existing object `ref` of a type without
    /// a primary key (`.update`), as one atomic change.
    func update(_ ref: ObjectRef, mapped object: MappedObject, references: ReferenceScope?, path: String) throws {
        try writeTopLevel(references: references) { writer in
            let type = try writer.catalog.storedType(ref.type)
            guard type.key == nil, !type.isEmbedded else {
                throw KuraError.store(.typeMismatch, "\(ref.type) has a primary key or is embedded: a document names its object")
            }
            try writer.transaction.storage.requireExists(ref)
            _ = try ObjectWriteInput.with(object, of: type, in: writer.transaction) { given in
                try writer.update(ref, type, given, policy: .update, path: path, depth: 0)
            }
            return ref
        }
    }

    /// Runs `write` on the open transaction as one atomic change, `$ref`s resolving in `references`.
    @discardableResult
    private func writeTopLevel<Result>(references: ReferenceScope?, _ write: (ObjectWriter) throws -> Result) throws -> Result {
        let transaction = try requireTransaction()
        return try Self.run(sql: nil) {
            // Objects above these are the input's own, never matched by its documents (`ObjectWriter.matchedObject`).
            if let references, references.objectIdFloors == nil { references.objectIdFloors = try transaction.storage.objectIdFloors() }
            return try transaction.resolving(in: references) {
                try transaction.atomically { try write(ObjectWriter(transaction: transaction)) }
            }
        }
    }

    /// The object of `type` whose primary key is `key`, or `nil`.
    public func object(ofType type: String, forPrimaryKey key: Value) throws -> DynamicObject? {
        let schema = try queryableType(type)
        guard let keyProperty = schema.primaryKeyProperty else {
            throw KuraError.store(.typeMismatch, "\(type) has no primary key")
        }
        // Checked here for the writer's message; the snapshot takes only keys of the key's type.
        _ = try ObjectWriter.encodeScalar(key, as: keyProperty.type, path: "\(type).\(keyProperty.name)")
        let id = try read { snapshot in try snapshot.objectId(of: schema, primaryKey: key) }
        return id.map { DynamicObject(realm: self, ref: ObjectRef(type: type, id: $0)) }
    }

    /// Whether the realm holds an object of `type` with the primary key of `document` (a `.map`);
    /// false for a type without a primary key or a document without one.
    func holdsObject(_ type: String, keyIn document: Value) throws -> Bool {
        guard let key = schema[type: type]?.primaryKeyProperty, case .map(let values) = document,
              let value = values[key.name], !value.isNull
        else { return false }
        return try object(ofType: type, forPrimaryKey: value) != nil
    }

    /// Whether the realm holds an object that a top-level document of `type`, a type without a
    /// primary key, matches and would change nothing of (`ObjectWriter.matchedObject`), for
    /// `--skip-existing`; nothing is written. False for a type with a primary key.
    func holdsMatch(_ type: String, document: Value, references: ReferenceScope, path: String) throws -> Bool {
        guard let stored = unkeyedTopLevelType(type), case .map(let fields) = document else { return false }
        return try writeTopLevel(references: references) { writer in
            try ObjectWriteInput.with(fields, of: stored) { given in
                try writer.matchedObject(stored, given, policy: .modified, path: path, leavingItAsItIs: true)
            }
        } != nil
    }

    /// As `holdsMatch(_:document:…)`, for a document mapped by the strict mapper.
    func holdsMatch(_ type: String, mapped object: MappedObject, references: ReferenceScope, path: String) throws -> Bool {
        guard let stored = unkeyedTopLevelType(type) else { return false }
        return try writeTopLevel(references: references) { writer in
            try ObjectWriteInput.with(object, of: stored, in: writer.transaction) { given in
                try writer.matchedObject(stored, given, policy: .modified, path: path, leavingItAsItIs: true)
            }
        } != nil
    }

    private func unkeyedTopLevelType(_ type: String) -> StoredType? {
        guard let stored = try? catalog.storedType(type), stored.key == nil, !stored.isEmbedded, !stored.isAsymmetric else { return nil }
        return stored
    }

    /// Whether the realm holds an object of `type` with the primary key of the mapped `object`.
    func holdsObject(_ type: String, mapped object: MappedObject) throws -> Bool {
        guard let schema = schema[type: type], let key = schema.primaryKeyProperty,
              let position = schema.storedProperties.firstIndex(where: { $0.name == key.name }),
              case .plain(let value)? = object[position], !value.isNull
        else { return false }
        return try self.object(ofType: type, forPrimaryKey: value) != nil
    }

    /// The object with internal id `ref`, or `nil` if it is not stored.
    public func object(_ ref: ObjectRef) throws -> DynamicObject? {
        _ = try queryableType(ref.type)
        let exists = try read { snapshot in try snapshot.objectExists(ref) }
        return exists ? DynamicObject(realm: self, ref: ref) : nil
    }

    /// The objects of `type`, in creation order, as lazy `Results` (see `Results`).
    public func objects(_ type: String) throws -> Results<DynamicObject> {
        _ = try queryableType(type)
        return try Results(realm: self, type: type) { realm, _, ids in
            ids.map { DynamicObject(realm: realm, ref: ObjectRef(type: type, id: $0)) }
        }
    }

    /// The number of objects of `type`.
    public func count(_ type: String) throws -> Int {
        _ = try catalog.type(type)
        return try read { snapshot in try snapshot.objectCount(of: type) }
    }

    /// Whether the realm holds any object of `type`; cheaper than counting them.
    func hasObjects(_ type: String) throws -> Bool {
        _ = try catalog.type(type)
        return try read { snapshot in try snapshot.holdsObjects(of: type) }
    }

    /// Deletes an object: links to it become null, it leaves every list, set and map, and its
    /// embedded objects are deleted with it.
    public func delete(_ object: DynamicObject) throws {
        let transaction = try requireTransaction()
        if catalog.isEmbedded(object.type) {
            throw KuraError.store(.embeddedMisuse, "\(object.ref) is embedded: set its parent's property to null to delete it")
        }
        try Self.run(sql: nil) { try transaction.atomically { try ObjectDeleter(transaction: transaction).delete(object.ref) } }
    }

    /// Deletes every object in `objects`.
    public func delete(_ objects: [DynamicObject]) throws {
        for object in objects { try delete(object) }
    }

    /// Deletes every object in `results`, as `delete(_:)` does: the matching ids are read first,
    /// so that deleting does not shift the objects still to delete.
    public func delete<Element>(_ results: Results<Element>) throws {
        _ = try requireTransaction()
        for id in try results.allIds() { try delete(DynamicObject(realm: self, ref: ObjectRef(type: results.typeName, id: id))) }
    }

    func queryableType(_ name: String) throws -> ObjectSchema {
        let type = try catalog.type(name)
        if type.isAsymmetric {
            throw KuraError.store(.asymmetricMisuse, "\(name) is asymmetric: its objects can be inserted and exported, not queried")
        }
        return type
    }
}
