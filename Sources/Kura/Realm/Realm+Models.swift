/// Storing and reading Codable model values.
extension Realm {
    /// Stores a model value and every object it links to; returns it as stored (with generated
    /// keys and defaults filled in). Objects with an existing primary key follow `update`.
    ///
    /// A class instance read from this realm (or added to it before) is the object it was read as:
    /// under `update: .modified` or `.update` it and the objects it links to are updated in place,
    /// never stored again. Structs have no identity: they are known by their primary key only.
    @discardableResult
    public func add<T: KuraObject>(_ model: T, update: UpdatePolicy = .error) throws -> T {
        let transaction = try requireTransaction()
        _ = try catalog.type(T.typeName)
        let ref = try Self.run(sql: nil) {
            try transaction.atomically {
                try ModelWriteSession(transaction: transaction, policy: update, identities: identities).write(model)
            }
        }
        return try decodeModels(T.self, [ref])[0]
    }

    /// The objects of a model type, in creation order, as lazy `Results`: nothing is read until
    /// they are counted, indexed or iterated, and then a window at a time.
    public func objects<T: KuraObject>(_ type: T.Type) throws -> Results<T> {
        _ = try queryableType(T.typeName)
        let name = T.typeName
        return try Results(realm: self, type: name) { realm, snapshot, ids in
            try realm.decodeModels(type, ids.map { ObjectRef(type: name, id: $0) }, in: snapshot)
        }
    }

    /// Deletes the stored object a model is: the one a class instance was read as or added as,
    /// otherwise the one with the model's primary key. Links to it become null, as `delete(_:)` does.
    public func delete<T: KuraObject>(_ model: T) throws {
        _ = try requireTransaction()
        guard let object = try storedObject(of: model) else {
            throw KuraError.store(
                .unmanagedObject,
                T.primaryKey == nil
                    ? "this \(T.typeName) was not read from or added to this realm, and \(T.typeName) has no primary key: nothing says which object to delete"
                    : "no stored \(T.typeName) has this one's primary key")
        }
        try delete(object)
    }

    /// The stored object `model` is: by identity for a class instance of this realm, else by primary key.
    func storedObject<T: KuraObject>(of model: T) throws -> DynamicObject? {
        if T.self is AnyClass, let ref = identities.ref(of: model as AnyObject), try object(ref) != nil {
            return DynamicObject(realm: self, ref: ref)
        }
        guard let key = T.primaryKey, case .map(let fields) = try ValueEncoder(objectHandler: { _ in .null }).encodeFields(of: model),
              let value = fields[key], !value.isNull
        else { return nil }
        return try object(ofType: T.typeName, forPrimaryKey: value)
    }

    /// The object of a model type with primary key `key`, decoded, or `nil`.
    public func object<T: KuraObject>(ofType type: T.Type, forPrimaryKey key: Value) throws -> T? {
        guard let object = try object(ofType: T.typeName, forPrimaryKey: key) else { return nil }
        return try decodeModels(type, [object.ref]).first
    }

    /// Decodes stored objects as model values in one session, so shared objects decode once.
    func decodeModels<T: KuraObject>(_ type: T.Type, _ refs: [ObjectRef]) throws -> [T] {
        try read { snapshot in try decodeModels(type, refs, in: snapshot) }
    }

    /// Decodes stored objects as model values in one session, reading through `snapshot`.
    func decodeModels<T: KuraObject>(_ type: T.Type, _ refs: [ObjectRef], in snapshot: some StorageSnapshot) throws -> [T] {
        let session = DecodingSession(
            schema: catalog.schema, load: { ref in .map(try snapshot.values(of: ref)) },
            linkingObjects: { ref, property in try snapshot.linkingObjects(of: ref, property) })
        let models = try refs.map { try session.object(type, at: $0, codingPath: [], depth: 0) }
        try session.fillLinks()
        identities.record(session.instances)
        return models
    }
}
