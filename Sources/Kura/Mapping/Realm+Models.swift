import GRDB

/// Storing and reading Codable model values.
extension Realm {
    /// Stores a model value and every object it links to; returns it as stored (with generated
    /// keys and defaults filled in). Objects with an existing primary key follow `update`.
    @discardableResult
    public func add<T: KuraObject>(_ model: T, update: UpdatePolicy = .error) throws -> T {
        let transaction = try requireTransaction()
        _ = try catalog.type(T.typeName)
        let ref = try Self.run(sql: nil) {
            try transaction.atomically { try ModelWriteSession(transaction: transaction, policy: update).write(model) }
        }
        return try decodeModels(T.self, [ref])[0]
    }

    /// The objects of a model type, in creation order, as lazy `Results`: nothing is read until
    /// they are counted, indexed or iterated, and then a window at a time.
    public func objects<T: KuraObject>(_ type: T.Type) throws -> Results<T> {
        _ = try queryableType(T.typeName)
        let name = T.typeName
        return try Results(realm: self, type: name) { realm, db, ids in
            try realm.decodeModels(type, ids.map { ObjectRef(type: name, id: $0) }, db: db)
        }
    }

    /// The object of a model type with primary key `key`, decoded, or `nil`.
    public func object<T: KuraObject>(ofType type: T.Type, forPrimaryKey key: Value) throws -> T? {
        guard let object = try object(ofType: T.typeName, forPrimaryKey: key) else { return nil }
        return try decodeModels(type, [object.ref]).first
    }

    /// Decodes stored objects as model values in one session, so shared objects decode once.
    func decodeModels<T: KuraObject>(_ type: T.Type, _ refs: [ObjectRef]) throws -> [T] {
        try read { db in try decodeModels(type, refs, db: db) }
    }

    /// Decodes stored objects as model values in one session, reading through `db`.
    func decodeModels<T: KuraObject>(_ type: T.Type, _ refs: [ObjectRef], db: Database) throws -> [T] {
        let reader = ObjectReader(db: db, catalog: catalog)
        let session = DecodingSession(
            schema: catalog.schema, load: { ref in .map(try reader.values(of: ref)) },
            linkingObjects: { ref, property in try reader.linkingObjects(of: ref, property) })
        let models = try refs.map { try session.object(type, at: $0, codingPath: [], depth: 0) }
        try session.fillLinks()
        return models
    }
}
