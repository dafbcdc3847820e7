/// Nested documents of types without a primary key, written over an existing object: each updates
/// the object its place holds now rather than making another, so that writing the same documents
/// again changes nothing.
///
/// A place is a to-one link, an index of a list or set (in stored order), a key of a map, or a
/// position inside a mixed value. When the place holds an object of the document's type, the
/// document updates it under the same mode (`update`, `modified` or `replace`). An object that
/// other places link to as well is updated only by a document carrying `"$id"`, as export writes
/// a shared object; another document leaves it to those places and makes a new object. Embedded
/// objects have one parent and are always updated in place. Elements a collection no longer holds
/// leave it: an embedded one is deleted, any other stays in the realm, as in Realm.
extension ObjectWriter {
    /// Updates `held`, the object a place holds now, from the value given for that place; returns
    /// whether anything changed, or `nil` when the value is not a nested document or `held` is not
    /// this place's alone (the caller then writes the value as it would for an empty place).
    func updateHeld(
        _ held: ObjectRef, _ type: StoredType, with value: MappedValue, policy: UpdatePolicy, path: @autoclosure () -> String,
        depth: Int
    ) throws -> Bool? {
        guard type.key == nil, held.type == type.name else { return nil }
        let changed = try withNested(value, of: type) { given -> Bool? in
            if !type.isEmbedded, given.id == nil, try isShared(held) { return nil }
            try define(given.id, as: held, path: path())
            return try update(held, type, given, policy: policy, path: path(), depth: depth + 1)
        }
        return changed ?? nil
    }

    /// Whether more than one place links to `ref`.
    private func isShared(_ ref: ObjectRef) throws -> Bool {
        try linkCount(ref, upTo: 2) > 1
    }

    /// How many places link to `ref`, counted up to `limit`.
    func linkCount(_ ref: ObjectRef, upTo limit: Int) throws -> Int {
        try transaction.storage.linkCount(to: ref, upTo: limit)
    }

    /// `given`, a mixed value for a place that holds `held` now, with its links turned into the
    /// objects they name, so that it compares equal to `held` when it links to the same objects: a
    /// nested document updates the object `held` has at the same position (`updateHeld`) or is
    /// written as a link property's would be, a primary key finds its object, and a `$ref` to a
    /// document already written names that document's object. A link that cannot be settled yet (a
    /// reference to a later document, a key nothing holds) is left as given, for `MixedStore.encode`.
    func resolvingLinks(
        in given: Value, held: Value?, policy: UpdatePolicy, path: @autoclosure () -> String, level: Int = 0, depth: Int
    ) throws -> Value {
        // Deeper values are refused by `MixedStore.encode`, as they would be without links.
        guard level < MixedTag.maxDepth else { return given }
        switch given {
        case .list(let items):
            var heldItems: [Value] = []
            if case .list(let stored)? = held { heldItems = stored }
            // The path is made once per container (see `MixedStore.encode`).
            let here = path()
            var resolved: [Value] = []
            resolved.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                resolved.append(try resolvingLinks(
                    in: item, held: index < heldItems.count ? heldItems[index] : nil, policy: policy, path: "\(here)[\(index)]",
                    level: level + 1, depth: depth))
            }
            return .list(resolved)
        case .map(let entries):
            if let link = MixedLink(entries) { return try resolvedLink(link, held: held, policy: policy, path: path(), depth: depth) }
            var heldEntries: [String: Value] = [:]
            if case .map(let stored)? = held { heldEntries = stored }
            let here = path()
            var resolved: [String: Value] = [:]
            for (key, entry) in entries {
                resolved[key] = try resolvingLinks(
                    in: entry, held: heldEntries[key], policy: policy, path: "\(here).\(key)", level: level + 1, depth: depth)
            }
            return .map(resolved)
        default:
            return given
        }
    }

    /// The object a mixed link names, or the link as given when it cannot be settled here.
    private func resolvedLink(_ link: MixedLink, held: Value?, policy: UpdatePolicy, path: @autoclosure () -> String, depth: Int) throws
        -> Value
    {
        // An unknown or embedded type is `MixedStore.encode`'s to refuse, with its message.
        guard let type = try? catalog.storedType(link.typeName), !type.isEmbedded else { return link.value }
        switch link.link {
        case .object(let ref):
            return ref.type == type.name ? .object(ref) : link.value
        case .null:
            return link.value
        case .map(let fields):
            if let id = Self.referenceId(fields) {
                guard let scope = transaction.references, let slot = scope.slot(for: ReferenceScope.Key(id: id)), !slot.isReserved
                else { return link.value }
                let ref = scope.objectRef(slot)
                return ref.type == type.name ? .object(ref) : link.value
            }
            if case .object(let ref)? = held,
                try updateHeld(ref, type, with: .plain(link.link), policy: policy, path: path(), depth: depth) != nil
            {
                return .object(ref)
            }
            let stored = try self.link(link.link, to: type, policy: policy, path: path(), depth: depth)
            guard case .integer(let id) = stored else { return link.value }
            return .object(ObjectRef(type: type.name, id: id))
        default:
            guard let keyProperty = type.key else { return link.value }
            let key = try encodeScalar(link.link, keyProperty, path: path())
            guard let id = try transaction.storage.objectId(type, key: key) else { return link.value }
            return .object(ObjectRef(type: type.name, id: id))
        }
    }
}
