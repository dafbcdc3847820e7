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
            try transaction.storage.relink(from: reserved, to: ref)
        }
        scope.set(id, .defined(ref, path: path()))
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
