/// Writes stored objects straight from their rows, with no document value in between: the walk the
/// assembler and the walker make together, in one pass. Links follow `DocumentReferences`, so the
/// text is the same as for the assembled document (and `$id` names count in writing order).
///
/// Two depths are counted: `depth` as the mapper counts it (properties, collections), refused where
/// the mapper would refuse it; `nesting` as the link rules count it (objects without a key nested so
/// far), past which a chain is deferred to documents of its own.
extension DocumentWalker {
    /// Writes the stored object `ref` as a top-level document, led by `"$type"` when `tagged`.
    mutating func writeStoredDocument(_ ref: ObjectRef, _ type: TypePlan, tagged: Bool, from objects: StoredObjects) throws {
        emitter.beginDocument()
        try writeStoredObject(
            ref, type, depth: 0, nesting: 0, anchorable: false, typeTag: tagged ? type.name : nil, from: objects)
        emitter.endDocument()
    }

    private mutating func writeStoredObject(
        _ ref: ObjectRef, _ type: TypePlan, depth: Int, nesting: Int, anchorable: Bool, typeTag: String?,
        from objects: StoredObjects
    ) throws {
        guard depth < DocumentNesting.maxDepth else { throw WriteFailure.tooDeep }
        let id = try objects.references.identity(of: ref, isEmbedded: type.isEmbedded, hasKeyProperty: type.primaryKey != nil)
        let fields = try objects.fields(of: ref)
        // Top-level documents are named by whoever chose them; nested objects without a key by their `"$url"`.
        let url = nesting > 0 && !type.isEmbedded && type.primaryKey == nil ? nestedObjectURL?(ref) : nil
        let anchor = try beginObject(
            properties: fields.count, id: id, anchorable: anchorable, typeTag: typeTag, url: url, depth: depth)
        for (field, value) in zip(type.fields, fields) {
            try emitter.propertyKey(field)
            do {
                if field.shape.kind == .link || field.shape.kind == .mixed {
                    try writeStoredProperty(value, field, depth: depth + 1, nesting: nesting, from: objects)
                } else {
                    try writeProperty(value, field, depth: depth + 1)
                }
            } catch let failure as WriteFailure {
                throw failure.inside(.key(field.name))
            }
        }
        emitter.endObject(anchor: anchor)
    }

    /// A property that can hold links: a link, a mixed value, or a collection of either.
    private mutating func writeStoredProperty(
        _ value: Value, _ field: FieldPlan, depth: Int, nesting: Int, from objects: StoredObjects
    ) throws {
        let shape = field.shape
        switch shape.collection {
        case .single:
            try writeStoredElement(value, shape, depth: depth, nesting: nesting, from: objects)
        case .list:
            guard case .list(let items) = value else { throw Self.mismatch(field.type.description, value) }
            emitter.beginArray(count: items.count)
            for (index, item) in items.enumerated() {
                do {
                    try writeStoredElement(item, shape, depth: depth + 1, nesting: nesting, from: objects)
                } catch let failure as WriteFailure {
                    throw failure.inside(.index(index))
                }
            }
            emitter.endArray()
        case .map:
            guard case .map(let entries) = value else { throw Self.mismatch(field.type.description, value) }
            try writeStoredEntries(entries, depth: depth) { walker, entry in
                try walker.writeStoredElement(entry, shape, depth: depth + 1, nesting: nesting, from: objects)
            }
        }
    }

    private mutating func writeStoredElement(
        _ value: Value, _ shape: FieldShape, depth: Int, nesting: Int, from objects: StoredObjects
    ) throws {
        if shape.isOptional, case .null = value {
            emitter.null()
            return
        }
        switch shape.kind {
        case .link: try writeStoredLink(value, to: plan.types[shape.target], depth: depth, nesting: nesting, from: objects)
        case .mixed: try writeStoredMixed(value, depth: depth, nesting: nesting, from: objects)
        default: try writeElement(value, shape, depth: depth)
        }
    }

    /// A nested document, a reference or the target's primary key, as `DocumentReferences` decides.
    private mutating func writeStoredLink(
        _ value: Value, to target: TypePlan, depth: Int, nesting: Int, from objects: StoredObjects
    ) throws {
        guard case .object(let ref) = value else {
            try writeLink(value, to: target, depth: depth)  // not a stored link: refused there
            return
        }
        let form = try objects.references.form(
            ofLinkTo: ref, isEmbedded: target.isEmbedded, hasKeyProperty: target.primaryKey != nil, depth: nesting)
        switch form {
        case .nested:
            try writeStoredObject(
                ref, target, depth: depth, nesting: nesting + 1, anchorable: !target.isEmbedded, typeTag: nil, from: objects)
        case .key(let key):
            try writeLink(key, to: target, depth: depth)
        case .reference(let id):
            try writeReference(to: id, depth: depth)
        }
    }

    /// A mixed value whose links (at any depth of its lists and maps) are stored objects.
    private mutating func writeStoredMixed(_ value: Value, depth: Int, nesting: Int, from objects: StoredObjects) throws {
        switch value {
        case .object(let ref):
            let target = try mixedLinkTarget(ref.type)
            let form = try objects.references.form(ofLinkTo: ref, isEmbedded: false, hasKeyProperty: target.primaryKey != nil, depth: nesting)
            switch form {
            case .nested:
                guard depth < DocumentNesting.maxDepth else { throw WriteFailure.tooDeep }
                // `$id` stays a key: an alias in a mixed position would copy the value, not link it.
                try writeStoredObject(
                    ref, target, depth: depth, nesting: nesting + 1, anchorable: false, typeTag: target.name, from: objects)
            case .key(let key):
                try writeMixedLink(MixedLink(typeName: target.name, link: key), depth: depth)
            case .reference(let id):
                try writeMixedLink(MixedLink(typeName: target.name, link: .map(["$ref": id])), depth: depth)
            }
        case .list(let items):
            guard depth < DocumentNesting.maxDepth else { throw WriteFailure.tooDeep }
            emitter.beginArray(count: items.count)
            for (index, item) in items.enumerated() {
                do {
                    try writeStoredMixed(item, depth: depth + 1, nesting: nesting, from: objects)
                } catch let failure as WriteFailure {
                    throw failure.inside(.index(index))
                }
            }
            emitter.endArray()
        case .map(let entries):
            guard depth < DocumentNesting.maxDepth else { throw WriteFailure.tooDeep }
            try writeStoredEntries(entries, depth: depth) { walker, entry in
                try walker.writeStoredMixed(entry, depth: depth + 1, nesting: nesting, from: objects)
            }
        default:
            try writeMixed(value, depth: depth)
        }
    }

    /// A map's entries sorted by key, each written by `writeEntry`.
    private mutating func writeStoredEntries(
        _ entries: [String: Value], depth: Int, _ writeEntry: (inout Self, Value) throws -> Void
    ) throws {
        emitter.beginObject(count: entries.count, anchor: nil)
        for (key, entry) in try Self.sortedEntries(entries) {
            try emitter.key(key)
            do { try writeEntry(&self, entry) } catch let failure as WriteFailure { throw failure.inside(.key(key)) }
        }
        emitter.endObject(anchor: nil)
    }
}
