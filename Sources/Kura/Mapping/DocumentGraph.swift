import Foundation

/// The objects of one input without a realm: mapped documents flattened into objects by local
/// reference, so that `"$id"`/`{"$ref": id}`, YAML anchors and primary-key links all reach the
/// same object, as they would in a realm.
final class DocumentGraph {
    let schema: Schema
    let file: String
    /// Each object's properties; links are `.object` references, embedded objects stay nested maps.
    private(set) var objects: [ObjectRef: [String: Value]] = [:]
    /// The `"$id"`s defined and referenced so far, as an import into a realm keeps them.
    private let references = ReferenceScope()
    /// By exact bytes, as a realm tells keys apart (`"café"` in NFC and NFD are two).
    private var keyed: [String: [ExactValue: ObjectRef]] = [:]
    /// Links given as a primary key, resolved once every document is in: negative placeholder id → the key.
    private var keyLinks: [Int64: (type: String, key: Value, use: Use)] = [:]
    private var lastId: Int64 = 0

    /// Where a reference was made, for the error if it never resolves.
    private struct Use {
        let path: String
        let position: TextPosition
    }

    init(schema: Schema, file: String) {
        self.schema = schema
        self.file = file
        // Never undone: no journal of every change.
        references.keepSnapshot()
    }

    /// Adds one mapped top-level document of `type`; returns its object.
    func add(_ document: Value, as type: ObjectSchema, path: String, position: TextPosition) throws(KuraError) -> ObjectRef {
        guard case .map(let fields) = document else {
            throw failure(.typeMismatch, Use(path: path, position: position), "expected a \(type.name) document")
        }
        return try object(fields, type, Use(path: path, position: position))
    }

    /// Resolves links given by primary key; fails on references no document defined.
    func finish() throws(KuraError) {
        if let first = references.firstUnresolved {
            // Every reservation here records its position; the first line stands in for none.
            let use = Use(path: first.path, position: first.position ?? TextPosition(line: 1, column: 1))
            throw failure(.unresolvedReference, use, ReferenceScope.unresolvedMessage(id: first.id))
        }
        var targets: [Int64: ObjectRef] = [:]
        for (placeholder, link) in keyLinks {
            guard let ref = keyed[link.type]?[ExactValue(link.key)] else {
                throw failure(.unresolvedReference, link.use, "no \(link.type) with primary key \(link.key) in this input")
            }
            targets[placeholder] = ref
        }
        guard !targets.isEmpty else { return }
        for (ref, fields) in objects {
            objects[ref] = fields.mapValues { Self.replacing(targets, in: $0, depth: 0) }
        }
        keyLinks.removeAll()
    }

    // MARK: Flattening

    private func object(_ fields: [String: Value], _ type: ObjectSchema, _ use: Use) throws(KuraError) -> ObjectRef {
        if let key = type.primaryKey, let value = fields[key], !value.isNull, let existing = keyed[type.name]?[ExactValue(value)] {
            try define(fields["$id"], as: existing, use)
            return existing  // the same key twice is the same object, as in a realm
        }
        let ref = try allocate(fields["$id"], type, use)
        if let key = type.primaryKey, let value = fields[key], !value.isNull { keyed[type.name, default: [:]][ExactValue(value)] = ref }
        objects[ref] = [:]  // claimed before its links are followed, so a cycle finds it
        objects[ref] = try properties(fields, type, use)
        return ref
    }

    private func properties(_ fields: [String: Value], _ type: ObjectSchema, _ use: Use) throws(KuraError) -> [String: Value] {
        var converted: [String: Value] = [:]
        for property in type.storedProperties {
            guard let value = fields[property.name] else {
                converted[property.name] = Self.missing(property)
                continue
            }
            converted[property.name] = try self.value(value, property.type, Use(path: "\(use.path).\(property.name)", position: use.position))
        }
        return converted
    }

    /// What a realm would store for a property the document leaves out (the mapper has already
    /// refused missing required ones): its default, an empty collection, or null.
    private static func missing(_ property: Property) -> Value? {
        switch property.defaultValue {
        case .value(let fixed)?: return fixed
        case .now?: return .date(Date())
        case .uuid?: return .uuid(UUID())
        case nil:
            if property.isAutoIncrement { return nil }  // a key is handed out only by a realm
            switch property.type {
            case .list, .set: return .list([])
            case .map: return .map([:])
            default: return .null
            }
        }
    }

    private func value(_ value: Value, _ type: PropertyType, _ use: Use) throws(KuraError) -> Value {
        switch (type, value) {
        case (_, .null):
            return .null
        case (.optional(let wrapped), _):
            return try self.value(value, wrapped, use)
        case (.list(let element), .list(let items)), (.set(let element), .list(let items)):
            var converted: [Value] = []
            converted.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                converted.append(try self.value(item, element, Use(path: "\(use.path)[\(index)]", position: use.position)))
            }
            return .list(converted)
        case (.map(let element), .map(let entries)):
            var converted: [String: Value] = [:]
            for (key, entry) in entries {
                converted[key] = try self.value(entry, element, Use(path: "\(use.path).\(MessageText.shown(key))", position: use.position))
            }
            return .map(converted)
        case (.object(let target), _):
            return try link(value, to: target, use)
        default:
            return value
        }
    }

    private func link(_ value: Value, to target: String, _ use: Use) throws(KuraError) -> Value {
        guard let type = schema[type: target] else { return value }
        guard case .map(let fields) = value else {
            // A primary key: the object is found once every document is in.
            lastId += 1
            keyLinks[-lastId] = (target, value, use)
            return .object(ObjectRef(type: target, id: -lastId))
        }
        if type.isEmbedded { return .map(try properties(fields, type, use)) }
        if fields.count == 1, let id = fields["$ref"] { return .object(try reference(id, to: target, use)) }
        return .object(try object(fields, type, use))
    }

    private func reference(_ id: Value, to target: String, _ use: Use) throws(KuraError) -> ObjectRef {
        let key = ReferenceScope.Key(id: id)
        switch references[key] {
        case .defined(let ref, _)?, .reserved(let ref, _, _)?:
            guard ref.type == target else {
                throw failure(.unresolvedReference, use, "{\"$ref\": \(id)} names a \(ref.type), expected a \(target)")
            }
            return ref
        case nil:
            let ref = newRef(target)
            references.set(key, .reserved(ref, path: use.path, position: use.position))
            return ref
        }
    }

    private func allocate(_ id: Value?, _ type: ObjectSchema, _ use: Use) throws(KuraError) -> ObjectRef {
        guard let id else { return newRef(type.name) }
        let key = ReferenceScope.Key(id: id)
        if case .reserved(let ref, let firstPath, _)? = references[key] {
            guard ref.type == type.name else {
                throw failure(
                    .unresolvedReference, use, "\"$id\": \(id) is a \(type.name), but \(firstPath) links to it as a \(ref.type)")
            }
            references.set(key, .defined(ref, path: use.path))
            return ref
        }
        let ref = newRef(type.name)
        try define(id, as: ref, use)
        return ref
    }

    /// Records `"$id": id` for an object; a reference made earlier must have expected its type.
    private func define(_ id: Value?, as ref: ObjectRef, _ use: Use) throws(KuraError) {
        guard let id else { return }
        let key = ReferenceScope.Key(id: id)
        switch references[key] {
        case .defined?:
            throw failure(.duplicateReferenceId, use, "\"$id\": \(id) is used by two documents")
        case .reserved(let earlier, _, _)?:
            // A forward reference to an object found by primary key: point the reservation at it.
            for (other, fields) in objects {
                objects[other] = fields.mapValues { Self.replacing([earlier.id: ref], in: $0, depth: 0) }
            }
        case nil:
            break
        }
        references.set(key, .defined(ref, path: use.path))
    }

    private func newRef(_ type: String) -> ObjectRef {
        lastId += 1
        return ObjectRef(type: type, id: lastId)
    }

    private func failure(_ code: KuraError.MappingCode, _ use: Use, _ message: String) -> KuraError {
        KuraError.documentErrors([KuraError.mapping(code, file: file, position: use.position, path: use.path, message)])
    }

    /// `value` with links to the ids in `targets` replaced; nesting is bounded by the mapper's depth limit.
    private static func replacing(_ targets: [Int64: ObjectRef], in value: Value, depth: Int) -> Value {
        switch value {
        case .object(let ref): return targets[ref.id].map(Value.object) ?? value
        case .list(let items) where depth < DocumentNesting.maxDepth:
            return .list(items.map { replacing(targets, in: $0, depth: depth + 1) })
        case .map(let entries) where depth < DocumentNesting.maxDepth:
            return .map(entries.mapValues { replacing(targets, in: $0, depth: depth + 1) })
        default: return value
        }
    }
}
