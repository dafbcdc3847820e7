/// A handle to a stored object, read and written by property name.
///
/// The handle stays valid while the object exists; once it is deleted every use throws
/// `KuraError` with code `.store(.objectDeleted)`. Like its realm, a handle may be used from any thread;
/// `setValue(_:forKey:)` needs a write transaction of the calling thread.
public struct DynamicObject: Sendable {
    /// The realm the object lives in.
    public let realm: Realm
    /// The object's type and internal id.
    public let ref: ObjectRef

    /// The object's type name.
    public var type: String { ref.type }

    /// Whether the object has been deleted.
    public var isInvalidated: Bool {
        (try? realm.read { snapshot in try !snapshot.objectExists(ref) }) ?? true
    }

    /// The value of one property (linkingObjects give a list of links).
    public func value(forKey name: String) throws -> Value {
        let catalog = realm.catalog
        let property = try catalog.property(name, of: catalog.type(ref.type))
        return try realm.read { snapshot in try snapshot.value(of: ref, property) }
    }

    /// The value of one property.
    public subscript(_ name: String) -> Value {
        get throws { try value(forKey: name) }
    }

    /// Every stored property, by name.
    public func values() throws -> [String: Value] {
        try realm.read { snapshot in try snapshot.values(of: ref) }
    }

    /// Sets one property; must be called inside `realm.write`.
    public func setValue(_ value: Value, forKey name: String) throws {
        let transaction = try realm.requireTransaction()
        let type = try realm.catalog.type(ref.type)
        if type.isAsymmetric {
            throw KuraError.store(.asymmetricMisuse, "\(type.name) is asymmetric: its objects cannot be updated")
        }
        let property = try realm.catalog.property(name, of: type)
        if property.isComputed {
            throw KuraError.store(.typeMismatch, "\(type.name).\(name) is computed from links and cannot be set")
        }
        if name == type.primaryKey && !transaction.isMigration {
            throw KuraError.store(.primaryKeyChanged, "\(type.name).\(name): a primary key cannot be changed once set")
        }
        try transaction.storage.requireExists(ref)
        if name == type.primaryKey {
            // A migration block may rewrite keys (to mend duplicates); the migration checks them when it ends.
            let stored = try ObjectWriter.encodeScalar(value, as: property.type, path: "\(type.name).\(name)")
            try Realm.run(sql: nil) { try ObjectWriter(transaction: transaction).setColumn(ref, property, stored) }
            return
        }
        try Realm.run(sql: nil) {
            try transaction.atomically {
                try ObjectWriter(transaction: transaction).update(
                    ref, [name: value], policy: .update, path: "\(type.name).\(name)", depth: 0)
            }
        }
    }

    /// The object a to-one link property points at, or `nil`.
    public func link(_ name: String) throws -> DynamicObject? {
        guard case .object(let target) = try value(forKey: name) else { return nil }
        return DynamicObject(realm: realm, ref: target)
    }

    /// The objects of a list or set of links, or of a linkingObjects property, in order.
    public func objects(_ name: String) throws -> [DynamicObject] {
        guard case .list(let items) = try value(forKey: name) else {
            throw KuraError.store(.typeMismatch, "\(ref.type).\(name) is not a list, set or linkingObjects property")
        }
        return items.compactMap { item in
            if case .object(let target) = item { return DynamicObject(realm: realm, ref: target) }
            return nil
        }
    }

    /// The objects linking to this one through the named linkingObjects property.
    public func linkingObjects(_ name: String) throws -> [DynamicObject] {
        let type = try realm.catalog.type(ref.type)
        guard case .linkingObjects? = type[property: name]?.type else {
            throw KuraError.store(.unknownProperty, "\(ref.type) has no linkingObjects property '\(name)'")
        }
        return try objects(name)
    }

    /// The objects of `type` whose `property` (a link, or a list, set or map of links, to this
    /// object's type) reaches this object, once each, in creation order: Realm's
    /// `LinkingObjects(fromType:property:)`, for a relation no linkingObjects property declares.
    public func linkingObjects(fromType type: String, property name: String) throws -> [DynamicObject] {
        let catalog = realm.catalog
        let origin = try catalog.type(type)
        let property = try catalog.property(name, of: origin)
        guard property.type.objectTypeName == ref.type else {
            throw KuraError.store(.typeMismatch, "\(type).\(name) is not a link, list, set or map of links to \(ref.type)")
        }
        // The reader finds origins through a linkingObjects property; this one stands for the relation asked about.
        let relation = Property(name: name, type: .linkingObjects(type: type, property: name))
        return try realm.read { snapshot in try snapshot.linkingObjects(of: ref, relation) }
            .map { DynamicObject(realm: realm, ref: $0) }
    }
}

extension DynamicObject: Equatable {
    /// Two handles are equal when they name the same object of the same realm.
    public static func == (lhs: DynamicObject, rhs: DynamicObject) -> Bool {
        lhs.realm === rhs.realm && lhs.ref == rhs.ref
    }
}

extension DynamicObject: CustomStringConvertible {
    public var description: String { ref.description }
}
