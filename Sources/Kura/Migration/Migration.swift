/// The block a `Realm.Configuration` runs to migrate a realm, inside the migration's transaction:
/// `migration` reads the old objects and changes the new ones; `oldSchemaVersion` is the version the
/// realm stored. Throwing rolls the whole migration back.
public typealias MigrationBlock = @Sendable (_ migration: Migration, _ oldSchemaVersion: Int) throws -> Void

/// A migration in progress, as a migration block sees it (Realm's `Migration`).
///
/// When the block runs, the realm already has the new schema: properties that were kept, renamed
/// (`renamedFrom`) or made optional hold their values, new ones their defaults, and properties whose
/// type changed are empty. The old objects stay readable until the block returns. Uniqueness of a
/// new primary key and values of required properties are checked after the block, so it can mend them.
public final class Migration {
    /// The schema the realm stored.
    public var oldSchema: Schema { old.schema }
    /// The schema the realm is migrated to.
    public var newSchema: Schema { realm.schema }

    let realm: Realm
    let old: OldObjects
    let storage: any MigrationStorage
    /// The per-type plans the migration follows.
    let plans: [TypeMigration]

    init(realm: Realm, old: OldObjects, storage: any MigrationStorage, plans: [TypeMigration]) {
        self.realm = realm
        self.old = old
        self.storage = storage
        self.plans = plans
    }

    /// Calls `block` for every object of `typeName` in the old realm, in creation order, with the
    /// object as it was and as it is in the new realm (`nil` when its type was removed or the object
    /// was deleted during the migration). The old object is never `nil`; it is optional as in Realm.
    public func enumerateObjects(
        ofType typeName: String, _ block: (_ oldObject: MigrationObject?, _ newObject: DynamicObject?) throws -> Void
    ) throws {
        let isKept = newSchema[type: typeName] != nil
        for id in try old.ids(of: typeName) {
            try old.requireOpen()
            let ref = ObjectRef(type: typeName, id: id)
            let current = try isKept && storage.isStored(ref) ? DynamicObject(realm: realm, ref: ref) : nil
            try block(MigrationObject(source: old, ref: ref), current)
        }
    }

    /// Creates an object in the new realm (as `Realm.create(_:value:update:)` does).
    @discardableResult
    public func create(_ typeName: String, value: Value = [:]) throws -> DynamicObject {
        try old.requireOpen()
        return try realm.create(typeName, value: value)
    }

    /// Deletes an object of the new realm, with the usual unlinking (as `Realm.delete(_:)` does).
    public func delete(_ object: DynamicObject) throws {
        try old.requireOpen()
        try realm.delete(object)
    }

    /// Deletes every object of `typeName` from the new realm (a removed type's objects go in any case);
    /// returns whether there were any, in the old realm or the new.
    @discardableResult
    public func deleteData(forType typeName: String) throws -> Bool {
        try old.requireOpen()
        let hadOld = try oldSchema[type: typeName] != nil && !old.ids(of: typeName).isEmpty
        guard newSchema[type: typeName] != nil else {
            if !hadOld { _ = try old.type(typeName) }
            return hadOld
        }
        let transaction = try realm.requireTransaction()
        let ids = try storage.storedIds(of: typeName)
        let deleter = ObjectDeleter(transaction: transaction)
        for id in ids {
            // Deleting a parent first may have taken an embedded object with it.
            let ref = ObjectRef(type: typeName, id: id)
            if try storage.isStored(ref) { try deleter.delete(ref) }
        }
        return hadOld || !ids.isEmpty
    }

    /// Moves the values of `oldName`, a property of the old schema that the new one no longer has,
    /// into `newName`, a property the new schema adds (what `renamedFrom` does in a schema file).
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) throws {
        try old.requireOpen()
        let path = "\(typeName): cannot rename '\(oldName)' to '\(newName)'"
        guard let previous = oldSchema[type: typeName], let current = newSchema[type: typeName],
            let plan = plans.first(where: { $0.name == typeName })
        else {
            throw KuraError.migration(.unknownType, "\(path): the type is not in both the old and the new schema")
        }
        guard let source = previous[property: oldName], !source.isComputed, current[property: oldName] == nil else {
            throw KuraError.migration(.invalidRename, "\(path): the old schema has no stored property '\(oldName)' that the new one drops")
        }
        guard let target = current[property: newName], !target.isComputed, let targetPlan = plan.property(newName) else {
            throw KuraError.migration(.invalidRename, "\(path): the new schema has no stored property '\(newName)'")
        }
        if let taken = targetPlan.old {
            if taken.name == oldName { return }
            throw KuraError.migration(.invalidRename, "\(path): '\(newName)' takes its values from '\(taken.name)' already")
        }
        guard SchemaDiff.carry(from: source.type, to: target.type) != .incompatible else {
            throw KuraError.migration(.invalidRename, "\(path): \(source.type) values do not fit a \(target.type) property")
        }
        try storage.moveValues(of: source, to: target, in: typeName, plans: plans)
    }

    /// Ends the migration: its handles throw from now on.
    func finish() { old.isOpen = false }
}
