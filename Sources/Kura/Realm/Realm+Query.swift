/// Finding, counting and deleting objects with Realm-style predicates.
extension Realm {
    /// The objects of `type` matching `predicate`, in the order of `sortedBy`, at most `limit` of them.
    ///
    /// `predicate` is a Realm-style predicate such as `age >= 3 AND ANY owners.name == 'Alice'`; `nil`
    /// matches every object. `sortedBy` is a list of key paths, each optionally followed by `asc` or
    /// `desc` (`name, age desc`); ties, and an unsorted query, keep creation order.
    /// `arguments` are the values of the predicate's `$0`, `$1` … placeholders, bound, never pasted
    /// into the text. Throws `KuraError`, before reading anything, when the query does not fit the schema.
    public func objects(
        _ type: String, where predicate: String?, arguments: [Value] = [], sortedBy: String? = nil, limit: Int? = nil
    ) throws -> [DynamicObject] {
        let query = try ObjectQuery(type, where: predicate, arguments: arguments, sortedBy: sortedBy, limit: limit, catalog: catalog)
        return try read { snapshot in try snapshot.ids(matching: query) }.map { DynamicObject(realm: self, ref: ObjectRef(type: type, id: $0)) }
    }

    /// The number of objects of `type` matching `predicate` (all of them when `nil`), its placeholders
    /// taking `arguments`.
    public func count(_ type: String, where predicate: String?, arguments: [Value] = []) throws -> Int {
        let query = try ObjectQuery(type, where: predicate, arguments: arguments, catalog: catalog)
        return try read { snapshot in try snapshot.count(matching: query) }
    }

    /// Deletes the objects of `type` matching `predicate` (all of them when `nil`) and returns how many.
    ///
    /// Must be called inside `write`; it deletes all or nothing. Each object is deleted as
    /// `delete(_:)` does: links to it become null, it leaves every list, set and map, and its
    /// embedded objects are deleted with it.
    @discardableResult
    public func delete(_ type: String, where predicate: String?, arguments: [Value] = []) throws -> Int {
        try delete(type, where: predicate, arguments: arguments, inSavepoint: true)
    }

    /// Deletes as `delete(_:where:)` does, without a savepoint of its own: for a caller whose write
    /// holds nothing else and is rolled back whole when this throws (`kura delete`): SQLite then
    /// keeps no copy of every page the delete changes.
    @discardableResult
    package func deleteRollingBackWhole(_ type: String, where predicate: String?, arguments: [Value] = []) throws -> Int {
        try delete(type, where: predicate, arguments: arguments, inSavepoint: false)
    }

    private func delete(_ type: String, where predicate: String?, arguments: [Value], inSavepoint: Bool) throws -> Int {
        let transaction = try requireTransaction()
        let query = try ObjectQuery(type, where: predicate, arguments: arguments, catalog: catalog)
        return try Self.run(sql: query.sql) {
            let deleteAll = {
                let ids = try transaction.storage.snapshot(by: self.catalog).ids(matching: query)
                let deleter = ObjectDeleter(transaction: transaction)
                // One object at a time through ObjectDeleter, which owns the unlinking rules; each
                // looks up the links to its object through indexes.
                for id in ids { try deleter.delete(ObjectRef(type: type, id: id)) }
                return ids.count
            }
            return inSavepoint ? try transaction.atomically(deleteAll) : try deleteAll()
        }
    }

    /// A compiled query on this realm's schema, for readers that run it in their own transaction.
    func query(
        _ type: String, where predicate: String?, arguments: [Value] = [], sortedBy: String? = nil, limit: Int? = nil,
        allowsAsymmetric: Bool = false
    ) throws(KuraError) -> ObjectQuery {
        try ObjectQuery(
            type, where: predicate, arguments: arguments, sortedBy: sortedBy, limit: limit, catalog: catalog,
            allowsAsymmetric: allowsAsymmetric)
    }
}
