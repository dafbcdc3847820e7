/// `"$id"` and `{"$ref": id}`: links between documents of one input, resolved in the transaction's
/// `ReferenceScope`.
extension ObjectWriter {
    /// The reference key of a value `{"$ref": id}`, or `nil` for any other value.
    static func referenceId(_ fields: [String: Value]) -> Value? {
        guard fields.count == 1, let (key, id) = fields.first, key == "$ref" else { return nil }
        return id
    }

    /// The object id for a new object: the one reserved by an earlier reference to its `"$id"`,
    /// or a fresh one (recorded under its `"$id"`, if it has one).
    func allocate(_ type: StoredType, _ given: ObjectWriteInput, key: Value?, path: @autoclosure () -> String) throws -> ObjectRef {
        guard let scope = transaction.references else {
            return ObjectRef(type: type.name, id: try transaction.nextObjectId(type))
        }
        // Only a reserved entry matters here: with none, the key's entry is not even built.
        if let key, !key.isNull, !scope.isResolved,
            case let keyEntry = ReferenceScope.Key(type: type.name, key: key), let slot = scope.slot(for: keyEntry), slot.isReserved
        {
            let held = scope.objectRef(slot)
            // Linked by its primary key before it was written: it takes the id held for it. The
            // entry goes: from here on the stored key finds the object.
            scope.set(keyEntry, nil)
            try define(given.id, as: held, path: path())
            return held
        }
        guard let id = given.id.map(ReferenceScope.Key.init(id:)) else {
            return ObjectRef(type: type.name, id: try transaction.nextObjectId(type))
        }
        guard let slot = scope.slot(for: id) else {
            let ref = ObjectRef(type: type.name, id: try transaction.nextObjectId(type))
            scope.set(id, .defined(ref, path: path()))
            return ref
        }
        if slot.isReserved, case let ref = scope.objectRef(slot), ref.type == type.name {
            guard !scope.isFromBeforeInput(ref) else {
                // Held for this document (`holdForReference`), which is written elsewhere as a new
                // object: the place that held the old one links to the new one instead.
                let new = ObjectRef(type: type.name, id: try transaction.nextObjectId(type))
                try define(given.id, as: new, path: path())
                return new
            }
            scope.set(id, .defined(ref, path: path()))
            return ref
        }
        switch scope.entry(slot) {
        case .reserved(let ref, let usedAt, _):
            throw KuraError.store(
                .unresolvedReference, "\(path()): \"$id\": \(id.value) is a \(type.name), but \(usedAt) links to it as a \(ref.type)")
        case .defined(_, let firstPath):
            throw KuraError.store(.duplicateReferenceId, "\(path()): \"$id\": \(id.value) is already used by \(firstPath)")
        }
    }

    /// Records that the document with `"$id"` `id` updated the existing object `ref`; references
    /// made to it before this point are moved from the reserved id to `ref`.
    func define(_ id: Value?, as ref: ObjectRef, path: @autoclosure () -> String) throws {
        guard let id = id.map(ReferenceScope.Key.init(id:)), let scope = transaction.references else { return }
        switch scope[id] {
        case nil:
            break
        case .defined(_, let firstPath)?:
            throw KuraError.store(.duplicateReferenceId, "\(path()): \"$id\": \(id.value) is already used by \(firstPath)")
        case .reserved(let reserved, let usedAt, _)?:
            guard reserved.type == ref.type else {
                throw KuraError.store(
                    .unresolvedReference, "\(path()): \"$id\": \(id.value) is a \(ref.type), but \(usedAt) links to it as a \(reserved.type)")
            }
            // An object held for this document (`holdForReference`) is linked to already.
            if reserved != ref { try transaction.storage.relink(from: reserved, to: ref) }
        }
        scope.set(id, .defined(ref, path: path()))
    }

    /// Under an update, keeps the object a place links to now for the document that a reference
    /// reaching forward names (export writes chains too deep to nest so): that document is then
    /// for the object the place holds, as a nested document would be, and the link stays as it is.
    /// Returns whether it did; only for a reference met for the first time, to an object without a
    /// primary key that the realm held before the input and that no other place links to.
    func holdForReference(_ value: MappedValue, held: ObjectRef, target: StoredType, path: @autoclosure () -> String) throws -> Bool {
        guard case .plain(.map(let fields)) = value, let id = Self.referenceId(fields), let scope = transaction.references,
            target.key == nil, !target.isEmbedded, held.type == target.name, scope.isFromBeforeInput(held)
        else { return false }
        let key = ReferenceScope.Key(id: id)
        guard scope.slot(for: key) == nil, scope.unresolvableMessage(key) == nil, !scope.isMatched(held), try linkCount(held, upTo: 2) == 1
        else { return false }
        scope.set(key, .reserved(held, path: path(), position: scope.position))
        scope.noteMatched(held)
        return true
    }

    /// The object held for a top-level document's `"$id"` by `holdForReference`, which the
    /// document updates; `nil` when its id holds none.
    func heldForDocument(_ type: StoredType, _ given: ObjectWriteInput) -> ObjectRef? {
        guard let id = given.id, let scope = transaction.references, let slot = scope.slot(for: ReferenceScope.Key(id: id)), slot.isReserved
        else { return nil }
        let ref = scope.objectRef(slot)
        return ref.type == type.name && scope.isFromBeforeInput(ref) ? ref : nil
    }

    /// The stored link for `{"$ref": id}`: the object defined (or reserved) under `id`, or a newly
    /// reserved id that the defining document will take.
    func resolveReference(_ key: ReferenceScope.Key, to target: StoredType, path: @autoclosure () -> String) throws -> StoredCell {
        let id = key.publicId
        if target.isEmbedded {
            throw KuraError.store(
                .embeddedMisuse, "\(path()): {\"$ref\": \(id)} cannot link embedded \(target.name): an embedded object has one parent")
        }
        guard let scope = transaction.references else {
            throw KuraError.store(.unresolvedReference, "\(path()): {\"$ref\": \(id)} given outside an input with \"$id\" documents")
        }
        if let slot = scope.slot(for: key) {
            let ref = scope.objectRef(slot)
            guard ref.type == target.name else {
                throw KuraError.store(.unresolvedReference, "\(path()): {\"$ref\": \(id)} names a \(ref.type), expected a \(target.name)")
            }
            return .integer(ref.id)
        }
        if let reason = scope.unresolvableMessage(key) { throw KuraError.store(.unresolvedReference, "\(path()): " + reason) }
        let ref = ObjectRef(type: target.name, id: try transaction.nextObjectId(target))
        scope.set(key, .reserved(ref, path: path(), position: scope.position))
        return .integer(ref.id)
    }
}
