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

    /// Every object of a model type, decoded, in creation order.
    public func objects<T: KuraObject>(_ type: T.Type) throws -> [T] {
        try decodeModels(type, try objects(T.typeName).map(\.ref))
    }

    /// The object of a model type with primary key `key`, decoded, or `nil`.
    public func object<T: KuraObject>(ofType type: T.Type, forPrimaryKey key: Value) throws -> T? {
        guard let object = try object(ofType: T.typeName, forPrimaryKey: key) else { return nil }
        return try decodeModels(type, [object.ref]).first
    }

    /// Decodes stored objects as model values in one session, so shared objects decode once.
    func decodeModels<T: KuraObject>(_ type: T.Type, _ refs: [ObjectRef]) throws -> [T] {
        let catalog = self.catalog
        return try read { db in
            let reader = ObjectReader(db: db, catalog: catalog)
            let session = DecodingSession(
                schema: catalog.schema, load: { ref in .map(try reader.values(of: ref)) },
                linkingObjects: { ref, property in try reader.linkingObjects(of: ref, property) })
            let models = try refs.map { try session.object(type, at: $0, codingPath: [], depth: 0) }
            try session.fillLinks()
            return models
        }
    }
}
