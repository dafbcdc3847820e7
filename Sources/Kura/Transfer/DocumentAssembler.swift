/// Turns objects into documents as SPEC §5 writes them, the shape the mapper reads back: a link to an
/// object with a primary key is the key's value; an object without one is nested where it is linked,
/// and one reached more than once (shared, or in a cycle) carries `"$id"` where it is first written
/// and is `{"$ref": id}` everywhere after. Embedded objects are always nested.
///
/// The objects come from `load` with links as `.object` values, so the same assembler serves
/// model values and realms.
struct DocumentAssembler {
    /// How deep objects without a primary key are nested before the rest of a chain is written as
    /// documents of their own; well below the mapper's limit, which also counts collections.
    static let maxNesting = 64

    let schema: Schema
    /// An object's stored properties (and nothing else), links as `.object`.
    let load: (ObjectRef) throws -> [String: Value]
    /// An object's primary key value (`nil` or `.null` when it has none).
    let primaryKey: (ObjectRef) throws -> Value?
    /// Whether an object is reached more than once in what is written, so it needs an `"$id"`.
    let isShared: (ObjectRef) throws -> Bool
    /// Whether an object without a primary key is written as a document of its own (a root of a
    /// streamed export), so links to it are references and never nest it.
    var isRoot: (ObjectRef) -> Bool = { _ in false }

    /// The `"$id"` given to each shared or deferred object so far.
    private var ids: [ObjectRef: Value] = [:]
    /// The objects written so far that other places refer to by `"$id"`.
    private var written: Set<ObjectRef> = []
    /// Objects too deep to nest, to be written as documents of their own after the current one.
    private var deferred: [ObjectRef] = []
    private var linkingPropertiesByType: [String: [Property]] = [:]

    init(
        schema: Schema, load: @escaping (ObjectRef) throws -> [String: Value],
        primaryKey: @escaping (ObjectRef) throws -> Value?, isShared: @escaping (ObjectRef) throws -> Bool
    ) {
        self.schema = schema
        self.load = load
        self.primaryKey = primaryKey
        self.isShared = isShared
    }

    /// Whether a shared object has been written already (nested in an earlier document, say).
    func isWritten(_ ref: ObjectRef) -> Bool { written.contains(ref) }

    /// Names a shared object that will be written as a document of its own, so that links met
    /// before or inside it become `{"$ref": id}` instead of nesting it.
    mutating func nameInAdvance(_ ref: ObjectRef) throws {
        if ids[ref] == nil, try !hasKey(ref), try isShared(ref) { _ = name(ref) }
    }

    /// Takes the objects deferred so far, in the order they were met.
    mutating func takeDeferred() -> [ObjectRef] {
        defer { deferred.removeAll() }
        return deferred
    }

    /// The document of a top-level object.
    mutating func document(_ ref: ObjectRef) throws -> Value {
        try object(ref, depth: 0)
    }

    // MARK: Building

    private mutating func object(_ ref: ObjectRef, depth: Int) throws -> Value {
        guard let type = schema[type: ref.type] else {
            throw StoreError(.unknownType, "the schema has no type '\(ref.type)'")
        }
        var id: Value?
        if !type.isEmbedded, try ids[ref] != nil || (!hasKey(ref) && isShared(ref)) {
            id = ids[ref] ?? name(ref)
            written.insert(ref)  // before the properties, so a cycle back to it becomes a $ref
        }
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
            guard let embedded = schema[type: target], depth < Self.maxNesting else { return value }
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
            throw StoreError(.unknownType, "the schema has no type '\(ref.type)'")
        }
        if target.isEmbedded { return try object(ref, depth: depth + 1) }
        if target.primaryKey != nil, let key = try primaryKey(ref), !key.isNull { return key }  // needs no $id
        if let id = ids[ref] { return .map(["$ref": id]) }
        // A root written later in the stream: named now, it will carry the name as its "$id".
        if isRoot(ref) { return .map(["$ref": name(ref)]) }
        guard depth < Self.maxNesting else {
            // Too deep to nest: written on its own later; the reference reaches forward to it.
            deferred.append(ref)
            return .map(["$ref": name(ref)])
        }
        return try object(ref, depth: depth + 1)
    }

    /// Whether the object has a primary key value, which links use instead of `"$id"`.
    private func hasKey(_ ref: ObjectRef) throws -> Bool {
        // Asked before `isShared`, which costs a query for any type; this one only for keyed types.
        guard schema[type: ref.type]?.primaryKey != nil, let key = try primaryKey(ref) else { return false }
        return !key.isNull
    }

    /// A new `"$id"` for `ref`: its type and a number counting in the order objects are met, so an
    /// export of a re-imported realm names them the same.
    private mutating func name(_ ref: ObjectRef) -> Value {
        let id = Value.string("\(ref.type)-\(ids.count + 1)")
        ids[ref] = id
        return id
    }
}
