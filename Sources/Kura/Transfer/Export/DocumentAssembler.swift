/// Turns objects into document values as export writes them, the shape the mapper reads back, with
/// links written as `DocumentReferences` decides (a key, a nested document or a reference).
///
/// The objects come from `load` with links as `.object` values, so the same assembler serves
/// model values and realms (a copy's objects; an export writes stored rows as text directly).
struct DocumentAssembler {
    let schema: Schema
    /// An object's stored properties (and nothing else), links as `.object`.
    let load: (ObjectRef) throws -> [String: Value]
    /// How links are written and which objects carry an `"$id"`.
    let references: DocumentReferences
    private var linkingPropertiesByType: [String: [Property]] = [:]

    init(schema: Schema, load: @escaping (ObjectRef) throws -> [String: Value], references: DocumentReferences) {
        self.schema = schema
        self.load = load
        self.references = references
    }

    /// The document of a top-level object.
    mutating func document(_ ref: ObjectRef) throws -> Value {
        try object(ref, depth: 0)
    }

    // MARK: Building

    private mutating func object(_ ref: ObjectRef, depth: Int) throws -> Value {
        guard let type = schema[type: ref.type] else {
            throw KuraError.store(.unknownType, schema.noTypeMessage(ref.type, in: "the schema"))
        }
        let id = try references.identity(of: ref, isEmbedded: type.isEmbedded, hasKeyProperty: type.primaryKey != nil)
        // The loaded properties become the document in place: only links and mixed values change.
        var fields = try load(ref)
        if let id { fields["$id"] = id }
        for property in linkingProperties(of: type) {
            guard let value = fields[property.name] else { continue }
            fields[property.name] = try self.value(value, property.type, depth: depth)
        }
        return .map(fields)
    }

    /// The stored properties of `type` that can hold links (links, their collections, mixed values).
    private mutating func linkingProperties(of type: ObjectSchema) -> [Property] {
        if let known = linkingPropertiesByType[type.name] { return known }
        let found = type.storedProperties.filter { property in
            property.type.objectTypeName != nil || property.type == .mixed || property.type.element == .mixed
        }
        linkingPropertiesByType[type.name] = found
        return found
    }

    private mutating func addProperties(
        of stored: [String: Value], _ type: ObjectSchema, to fields: inout [String: Value], depth: Int
    ) throws {
        for property in type.storedProperties {
            guard let value = stored[property.name] else { continue }
            fields[property.name] = try self.value(value, property.type, depth: depth)
        }
    }

    private mutating func value(_ value: Value, _ type: PropertyType, depth: Int) throws -> Value {
        switch (value, type.nonOptional) {
        case (.object(let ref), .object):
            return try link(ref, depth: depth)
        case (.list(let items), .list(let element)), (.list(let items), .set(let element)):
            var converted: [Value] = []
            converted.reserveCapacity(items.count)
            for item in items { converted.append(try self.value(item, element, depth: depth)) }
            return .list(converted)
        case (.map(let stored), .object(let target)):
            // An embedded object given inline (as model values give it) rather than by reference.
            guard let embedded = schema[type: target], depth < DocumentReferences.maxNesting else { return value }
            var fields: [String: Value] = [:]
            try addProperties(of: stored, embedded, to: &fields, depth: depth + 1)
            return .map(fields)
        case (_, .mixed):
            return try mixed(value, depth: depth)
        case (.map(let entries), .map(let element)):
            var converted: [String: Value] = [:]
            for (key, entry) in entries { converted[key] = try self.value(entry, element, depth: depth) }
            return .map(converted)
        default:
            return value
        }
    }

    /// A mixed value with its links as `MixedLink`s (stored mixed values nest a bounded depth).
    private mutating func mixed(_ value: Value, depth: Int) throws -> Value {
        switch value {
        case .object(let ref): return MixedLink(typeName: ref.type, link: try link(ref, depth: depth)).value
        case .list(let items):
            var converted: [Value] = []
            converted.reserveCapacity(items.count)
            for item in items { converted.append(try mixed(item, depth: depth)) }
            return .list(converted)
        case .map(let entries):
            var converted: [String: Value] = [:]
            for (key, entry) in entries { converted[key] = try mixed(entry, depth: depth) }
            return .map(converted)
        default: return value
        }
    }

    private mutating func link(_ ref: ObjectRef, depth: Int) throws -> Value {
        guard let target = schema[type: ref.type] else {
            throw KuraError.store(.unknownType, schema.noTypeMessage(ref.type, in: "the schema"))
        }
        let form = try references.form(
            ofLinkTo: ref, isEmbedded: target.isEmbedded, hasKeyProperty: target.primaryKey != nil, depth: depth)
        switch form {
        case .nested: return try object(ref, depth: depth + 1)
        case .key(let key): return key
        case .reference(let id): return .map(["$ref": id])
        }
    }
}
