import Foundation
/// Writes objects from values: inserts, updates under an `UpdatePolicy`, and turns link values
/// (nested objects, primary keys, references) into stored links.
struct ObjectWriter {
    let transaction: WriteTransaction
    /// How deep nested objects may go in one value; bounds the recursion that writes them.
    static let maxDepth = 256

    var catalog: SchemaCatalog { transaction.catalog }
    /// The catalog's `storedTypes`, without copying the catalog for each use.
    var storedTypes: [StoredType] { transaction.storedTypes }

    /// Creates or updates a top-level object of `typeName` from `value` (a `.map` of properties).
    func create(_ typeName: String, _ value: Value, policy: UpdatePolicy, path: @autoclosure () -> String) throws -> ObjectRef {
        let type = try topLevelType(typeName, policy: policy)
        return try ObjectWriteInput.with(try fields(of: value, type.schema, path: path()), of: type) { given in
            try upsert(type, given, policy: policy, path: path(), depth: 0)
        }
    }

    /// Creates or updates a top-level object of `typeName` mapped from a document.
    func create(_ typeName: String, _ object: MappedObject, policy: UpdatePolicy, path: @autoclosure () -> String) throws -> ObjectRef {
        let type = try topLevelType(typeName, policy: policy)
        return try ObjectWriteInput.with(object, of: type, in: transaction) { given in
            try upsert(type, given, policy: policy, path: path(), depth: 0)
        }
    }

    /// The type of a top-level object to create under `policy`.
    private func topLevelType(_ typeName: String, policy: UpdatePolicy) throws -> StoredType {
        let type = try catalog.storedType(typeName)
        if type.isEmbedded {
            throw KuraError.store(.embeddedMisuse, "\(typeName) is embedded: create it as a nested value of its parent")
        }
        if type.isAsymmetric && policy != .error {
            throw KuraError.store(.asymmetricMisuse, "\(typeName) is asymmetric: its objects can only be inserted")
        }
        return type
    }

    /// The properties given by a `.map` value.
    func fields(of value: Value, _ type: ObjectSchema, path: @autoclosure () -> String) throws(KuraError) -> [String: Value] {
        guard case .map(let fields) = value else {
            throw KuraError.store(.typeMismatch, "\(path()): expected an object of type \(type.name), found \(value.kindName)")
        }
        return fields
    }

    func upsert(_ type: StoredType, _ given: ObjectWriteInput, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int) throws
        -> ObjectRef
    {
        guard depth < Self.maxDepth else {
            throw KuraError.store(.nestingTooDeep, "\(path()): objects nest deeper than \(Self.maxDepth) levels")
        }
        guard let keyProperty = type.key else {
            if depth == 0, let held = heldForDocument(type, given) {
                try define(given.id, as: held, path: path())
                try update(held, type, given, policy: policy, path: path(), depth: depth)
                return held
            }
            if depth == 0, let matched = try matchedObject(type, given, policy: policy, path: path()) { return matched }
            return try insert(type, given, key: nil, policy: policy, path: path(), depth: depth)
        }
        var key = given[keyProperty]?.value ?? .null
        if key.isNull {
            let property = keyProperty.property
            if property.isAutoIncrement {
                key = .int(try transaction.nextAutoIncrementKey(type))
            } else if property.defaultValue == .uuid {
                key = .uuid(UUID())
            } else if case .value(let fixed)? = property.defaultValue {
                key = fixed
            } else {
                throw KuraError.store(.missingValue, "\(path()).\(keyProperty.name): missing primary key")
            }
        } else if keyProperty.property.isAutoIncrement, case .int(let explicit) = key {
            try transaction.noteExplicitKey(type, explicit)
        }
        let encodedKey = try encodeScalar(key, keyProperty, path: "\(path()).\(keyProperty.name)")
        if let existing = try transaction.storage.objectId(type, key: encodedKey) {
            let ref = ObjectRef(type: type.name, id: existing)
            if policy == .error {
                throw KuraError.store(
                    .duplicatePrimaryKey, "\(path()): an object of type \(type.name) with primary key \(key) already exists")
            }
            try define(given.id, as: ref, path: path())
            try update(ref, type, given, policy: policy, path: path(), depth: depth)
            return ref
        }
        return try insert(type, given, key: key, policy: policy, path: path(), depth: depth)
    }

    /// Inserts a new object; `key` is the primary key value already settled by `upsert`.
    func insert(
        _ type: StoredType, _ given: ObjectWriteInput, key: Value?, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int
    ) throws -> ObjectRef {
        let ref = try allocate(type, given, key: key, path: path())
        let statements = type.statements
        let stage = transaction.stage
        let row = stage.mark
        defer { stage.reset(to: row) }
        stage.appendInteger(ref.id)
        var selfLinks: [(StoredProperty, Int64)] = []
        var storedKey: StoredCell?
        for property in type.columns {
            // The paths below capture the name, not the property: capturing a class instance in
            // each of them cost a retain and a release per value.
            let name = property.name
            let value: MappedValue =
                property.isKey ? .plain(key ?? .null) : try given[property] ?? .plain(valueNotGiven(property, path: "\(path()).\(name)"))
            if case .omitted = value { throw Self.omittedErrors(type, given) }
            switch property.kind {
            case .mixed:
                // Encoded before anything of it is staged: a mixed container writes rows of its own.
                let (tag, stored) = try MixedStore.encode(value, in: transaction, policy: policy, path: "\(path()).\(name)")
                stage.append(stored)
                stage.appendInteger(tag)
            case .link(let targetIndex):
                let target = storedTypes[targetIndex]
                if targetIndex == type.index, let key, case .plain(let plain) = value, !plain.isNull, ExactValue(plain) == ExactValue(key),
                    !target.isEmbedded
                {
                    selfLinks.append((property, ref.id))  // a link to the object being inserted
                    stage.appendNull()
                } else {
                    // Resolved before it is staged: a nested object stages and inserts its own row.
                    stage.append(try link(value, to: target, policy: policy, path: "\(path()).\(name)", depth: depth))
                }
            case .scalar, .collection:
                if property.isKey {
                    let stored = try encodeScalar(value.value, property, path: "\(path()).\(name)")
                    storedKey = stored
                    stage.append(stored)
                } else {
                    try stageScalar(value.value, property, path: "\(path()).\(name)")
                }
            }
        }
        let storage = transaction.storage
        try storage.insert(statements.insert, bulk: statements.bulkInsert, cells: row.cell..<stage.cellCount)
        if let storedKey { storage.noteInsertedKey(storedKey, of: type, id: ref.id) }
        for (property, id) in selfLinks {
            try setColumn(ref, property.property, .integer(id))
        }
        if !type.collections.isEmpty {
            let collections = CollectionWriter(writer: self)
            for property in type.collections {
                let value = given[property] ?? .plain(.null)
                _ = try collections.write(value, to: ref, property, policy: policy, isNew: true, path: "\(path()).\(property.name)", depth: depth)
            }
        }
        transaction.count(type, .inserted)
        return ref
    }

    /// Applies the given values to an existing object under `policy`; returns whether anything changed.
    @discardableResult
    func update(_ ref: ObjectRef, _ type: StoredType, _ given: ObjectWriteInput, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int)
        throws -> Bool
    {
        var changed = false
        let collections = CollectionWriter(writer: self)
        for property in type.properties where !property.isKey {
            let value: MappedValue
            if let supplied = given[property], !supplied.isOmitted {
                value = supplied
            } else if policy == .replace {
                value = .plain(property.isCollection ? .null : try valueNotGiven(property, path: "\(path()).\(property.name)"))
            } else {
                continue
            }
            if property.isCollection {
                changed = try collections.write(value, to: ref, property, policy: policy, isNew: false, path: "\(path()).\(property.name)", depth: depth) || changed
            } else {
                changed = try updateColumn(ref, property, value, policy: policy, path: "\(path()).\(property.name)", depth: depth) || changed
            }
        }
        transaction.count(type, changed ? .updated : .unchanged)
        // Rows inserted into its collections fire no trigger (see `ChangeTracker`).
        if changed { try transaction.storage.noteModified(ref) }
        return changed
    }

    /// The errors of the required properties a new object's document left out, in property order:
    /// the mapper left them to the writer in case the object existed (`MappedValue.omitted`).
    private static func omittedErrors(_ type: StoredType, _ given: ObjectWriteInput) -> KuraError {
        var errors: [KuraError] = []
        for property in type.columns {
            if case .omitted(let error)? = given[property] { errors.append(error) }
        }
        return KuraError.documentErrors(errors)
    }

    /// Applies `fields` to the existing object `ref` under `policy`; returns whether anything changed.
    @discardableResult
    func update(_ ref: ObjectRef, _ fields: [String: Value], policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int) throws -> Bool {
        let type = try catalog.storedType(ref.type)
        return try ObjectWriteInput.with(fields, of: type) { given in
            try update(ref, type, given, policy: policy, path: path(), depth: depth)
        }
    }

    private func updateColumn(
        _ ref: ObjectRef, _ stored: StoredProperty, _ value: MappedValue, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int
    ) throws -> Bool {
        let property = stored.property
        let current = try transaction.storage.storedColumn(of: ref, property)
        switch stored.kind {
        case .mixed:
            let held = try transaction.storage.mixedValue(tag: current.tag, value: current.value)
            let value = try resolvingLinks(in: value.value, held: held, policy: policy, path: path(), depth: depth)
            if policy == .modified ? ValueOrder.unchanged(held, value) : ValueOrder.identical(held, value) { return false }
            try transaction.storage.deleteMixedContainer(tag: current.tag, value: current.value)
            let (tag, stored) = try MixedStore.encode(value, in: transaction, policy: policy, path: path())
            try setColumn(ref, property, stored, tag: tag)
            return true
        case .link(let targetIndex) where storedTypes[targetIndex].isEmbedded:
            let target = storedTypes[targetIndex]
            return try updateEmbedded(ref, property, target: target, current: current.value, value, policy: policy, path: path(), depth: depth)
        case .link(let targetIndex):
            let target = storedTypes[targetIndex]
            // A nested document for the object the link holds updates it, and a reference to a
            // later document keeps it for that document; either way the link stays.
            if case .integer(let id) = current.value, case let held = ObjectRef(type: target.name, id: id),
                try updateHeld(held, target, with: value, policy: policy, path: path(), depth: depth) != nil
                    || holdForReference(value, held: held, target: target, path: path())
            {
                return false
            }
            let link = try link(value, to: target, policy: policy, path: path(), depth: depth)
            if link == current.value { return false }
            try setColumn(ref, property, link)
            return true
        case .scalar, .collection:
            let encoded = try encodeScalar(value.value, stored, path: path())
            if encoded.isIdentical(to: current.value) { return false }
            // `modified` compares as Realm does: a decimal 1.0 given 1.00 is left as it is.
            if policy == .modified && stored.scalarType == .decimal && encoded.decimalNormalized == current.value.decimalNormalized { return false }
            try setColumn(ref, property, encoded)
            return true
        }
    }

    /// An embedded object is updated in place when one exists; `null` deletes it.
    private func updateEmbedded(
        _ ref: ObjectRef, _ property: Property, target: StoredType, current: StoredCell, _ value: MappedValue,
        policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int
    ) throws -> Bool {
        let currentRef: ObjectRef? = if case .integer(let id) = current { ObjectRef(type: target.name, id: id) } else { nil }
        switch (value.isNull, currentRef) {
        case (true, nil):
            return false
        case (true, let child?):
            try setColumn(ref, property, .null)
            try ObjectDeleter(transaction: transaction).delete(child)
            return true
        case (false, let child?):
            if let changed = try updateHeld(child, target, with: value, policy: policy, path: path(), depth: depth) { return changed }
        case (false, nil):
            break
        }
        try setColumn(ref, property, try link(value, to: target, policy: policy, path: path(), depth: depth))
        return true
    }

    /// Runs `body` with the properties of a nested document: a mapped object, or a `.map` that is
    /// not a reference. `nil` for any other value.
    func withNested<Result>(_ value: MappedValue, of type: StoredType, _ body: (ObjectWriteInput) throws -> Result) throws -> Result? {
        switch value {
        case .object(let object):
            return try ObjectWriteInput.with(object, of: type, in: transaction, body)
        case .plain(.map(let fields)) where Self.referenceId(fields) == nil:
            return try ObjectWriteInput.with(fields, of: type, body)
        default:
            return nil
        }
    }

    /// Sets one column (and a mixed property's tag).
    func setColumn(_ ref: ObjectRef, _ property: Property, _ value: StoredCell, tag: Int64? = nil) throws {
        try transaction.storage.setColumn(ref, property, value, tag: tag)
    }

    /// The value of a property not given: its default, `null` for optional ones, or a `missingValue` error.
    func valueNotGiven(_ stored: StoredProperty, path: @autoclosure () -> String) throws(KuraError) -> Value {
        switch stored.defaultValue {
        case .value(let fixed)?: return fixed
        case .now?: return .date(Date())
        case .uuid?: return .uuid(UUID())
        case nil:
            if stored.isNullable || stored.isCollection { return .null }
            throw KuraError.store(.missingValue, "\(path()): missing value for required \(stored.type) property")
        }
    }

    /// The stored link for `value`: `null`, an existing object, a primary key, or a nested object
    /// (embedded, or created/updated under `policy` when the target has a primary key, new otherwise).
    func link(_ value: Value, to target: String, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int) throws -> StoredCell {
        try link(value, to: catalog.storedType(target), policy: policy, path: path(), depth: depth)
    }

    /// The stored link for a mapped value: as `link(_:to:…)` for a plain one.
    func link(_ value: MappedValue, to type: StoredType, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int) throws
        -> StoredCell
    {
        switch value {
        case .plain(let plain):
            return try link(plain, to: type, policy: policy, path: path(), depth: depth)
        case .object(let object):
            return try ObjectWriteInput.with(object, of: type, in: transaction) { given in
                try writeNested(type, given, policy: policy, path: path(), depth: depth)
            }
        case .list, .map, .checked:
            return try link(value.value, to: type, policy: policy, path: path(), depth: depth)
        case .omitted(let error):
            throw KuraError.documentErrors([error])
        }
    }

    /// Writes a nested object: embedded ones are always new, others created or updated by key.
    private func writeNested(_ type: StoredType, _ given: ObjectWriteInput, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int)
        throws -> StoredCell
    {
        if type.isEmbedded {
            return .integer(try insert(type, given, key: nil, policy: policy, path: path(), depth: depth + 1).id)
        }
        return .integer(try upsert(type, given, policy: policy, path: path(), depth: depth + 1).id)
    }

    func link(_ value: Value, to type: StoredType, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int) throws -> StoredCell {
        let target = type.name
        switch value {
        case .null:
            return .null
        case .object(let ref):
            guard ref.type == target else {
                throw KuraError.store(.typeMismatch, "\(path()): expected a link to \(target), found object \(ref)")
            }
            if type.isEmbedded {
                throw KuraError.store(.embeddedMisuse, "\(path()): embedded object \(ref) already has a parent: give a nested value instead")
            }
            try transaction.storage.requireExists(ref)
            return .integer(ref.id)
        case .map(let fields):
            if let id = Self.referenceId(fields) { return try resolveReference(ReferenceScope.Key(id: id), to: type, path: path()) }
            return try ObjectWriteInput.with(fields, of: type) { given in
                try writeNested(type, given, policy: policy, path: path(), depth: depth)
            }
        default:
            guard let keyProperty = type.key else {
                throw KuraError.store(
                    .typeMismatch, "\(path()): expected a nested \(target) object, found \(value.kindName) \(value)")
            }
            let key = try encodeScalar(value, keyProperty, path: path())
            if let id = try transaction.storage.objectId(type, key: key) { return .integer(id) }
            guard transaction.references != nil else {
                throw KuraError.store(.linkTargetNotFound, "\(path()): no \(target) with primary key \(value)")
            }
            // A later document of the same input may bring the object: its id is held for it.
            return try resolveReference(ReferenceScope.Key(type: target, key: value), to: type, path: path())
        }
    }
}
