/// The change log, read by version.
extension Realm {
    /// The version of the realm's last commit that changed an object or the schema, as the change
    /// log records it (0 for a realm no such commit has touched since it began tracking changes).
    /// Read from the file, so commits of other processes count.
    public var changeVersion: Int64 {
        get throws {
            try read { snapshot in try snapshot.changeLogVersion() }
        }
    }

    /// The commits after `version`, oldest first, at most `limit` of them, from this process and any
    /// other: the change log in the realm file.
    ///
    /// The log keeps the last 1000 versions: asking for changes after an older version throws
    /// `KuraError` with code `.store(.changesPruned)`, after which a reader should read everything again.
    public func changes(after version: Int64, limit: Int = Int.max) throws -> [RealmChange] {
        let schema = self.schema
        return try read { snapshot in try snapshot.changes(after: version, limit: limit, schema: schema) }
    }

    /// The primary keys of the stored `type` objects among `ids`, by id; ids of objects that no
    /// longer exist are left out. For turning a change's ids into keys.
    public func primaryKeys(ofType type: String, ids: [Int64]) throws -> [Int64: Value] {
        let objectType = try queryableType(type)
        return try read { snapshot in try snapshot.primaryKeys(of: objectType, ids: ids) }
    }
}
