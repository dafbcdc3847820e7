/// One commit of the change log with its objects named by the keys a client knows them by: their
/// primary keys, or their object ids (as `.int`) for types without one.
public struct KeyedChange: Sendable, Equatable {
    /// The commit's version.
    public var version: Int64
    /// Whether the commit changed the schema; such a commit names no objects.
    public var schemaChanged: Bool
    /// Per type, what the commit did to its objects; types with nothing left to tell, and embedded
    /// and asymmetric types (no key reads them), are left out.
    public var types: [String: KeyedTypeChanges]

    /// Makes a keyed change.
    public init(version: Int64, schemaChanged: Bool, types: [String: KeyedTypeChanges]) {
        self.version = version
        self.schemaChanged = schemaChanged
        self.types = types
    }
}

/// What one commit did to one type's objects, by key, in object id order.
public struct KeyedTypeChanges: Sendable, Equatable {
    /// The keys of one kind of change, or how many there are when they are more than the limit asked for.
    public enum Keys: Sendable, Equatable {
        /// The keys.
        case keys([Value])
        /// How many objects, past the key limit.
        case count(Int)

        /// Whether this names no object.
        public var isEmpty: Bool { self == .keys([]) }
    }

    /// The objects the commit created (still there, or deleted by a later commit).
    public var inserted: Keys
    /// The objects the commit modified.
    public var modified: Keys
    /// The objects the commit deleted.
    public var deleted: Keys

    /// Makes the changes of one type.
    public init(inserted: Keys, modified: Keys, deleted: Keys) {
        self.inserted = inserted
        self.modified = modified
        self.deleted = deleted
    }

    /// Whether some kind is a count rather than its keys.
    public var isTruncated: Bool {
        [inserted, modified, deleted].contains { if case .count = $0 { true } else { false } }
    }
}

extension Realm {
    /// The commits after `version`, oldest first, at most `limit` of them, with their objects named
    /// by key; a kind of change with more than `keyLimit` objects in one type is their count.
    ///
    /// Keys are read from the objects as they are now or, for objects deleted since, from the later
    /// commit that deleted them (the log records a deleted object's key); an object created and
    /// deleted by the same commit is left out. Throws `KuraError` with code `.store(.changesPruned)`
    /// when the log no longer reaches back to `version`.
    public func keyedChanges(after version: Int64, limit: Int = Int.max, keyLimit: Int = Int.max) throws -> [KeyedChange] {
        let changes = try changes(after: version, limit: limit)
        guard let newest = changes.last?.version else { return [] }
        var resolver = ChangeKeyResolver(realm: self, batch: changes, newest: newest)
        return try changes.map { try resolver.keyed($0, keyLimit: keyLimit) }
    }
}
