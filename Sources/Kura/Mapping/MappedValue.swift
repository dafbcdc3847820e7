/// A property value as the mapper hands it to the writer: a plain `Value`, or one that holds nested
/// objects mapped by property position. Measured on 200,000 people, building a `[String: Value]`
/// for every object and finding each property in it again cost about a tenth of both the reading
/// and the writing thread.
enum MappedValue: Sendable {
    /// A value without nested objects: scalars, mixed values, references, primary keys.
    case plain(Value)
    /// A nested document.
    case object(MappedObject)
    /// A list or set of links that holds nested documents, or a mixed value's list.
    case list([MappedValue])
    /// A map, or a mixed value's map: its entries in document order, each key once. A hashed
    /// table of a wide map took as much again in spare room, and twice that while it grew.
    case map([MapEntry])
    /// A wide list, set or map checked in place: the writer maps its elements again from their
    /// nodes as it writes them. Boxed: an inline payload of several fields made every copy of
    /// every mapped value switch over the cases.
    indirect case checked(CheckedElements)
    /// A required property left out, under `update` or `modified`, of a document that may be for an
    /// existing object: that object keeps its stored value, a new one fails with this error (see
    /// `MappingOptions.defersMissingProperties`).
    indirect case omitted(KuraError)

    /// The value as the public API shows it: nested documents become `.map`s of their properties.
    /// Nests no deeper than the mapper does (`DocumentNesting.maxDepth`).
    var value: Value {
        switch self {
        case .plain(let value): value
        case .object(let object): object.value
        case .list(let items): .list(items.map(\.value))
        case .map(let entries): .map(Dictionary(entries.lazy.map { ($0.key, $0.value.value) }, uniquingKeysWith: { $1 }))
        case .checked(let elements): elements.value
        case .omitted: .null
        }
    }

    /// Whether the value is `null`.
    var isNull: Bool {
        if case .plain(let value) = self { return value.isNull }
        return false
    }

    /// Whether the document left this required property out (see `omitted`).
    var isOmitted: Bool {
        if case .omitted = self { return true }
        return false
    }

    /// What kind of value this is, for messages.
    var kindName: String {
        switch self {
        case .plain(let value): value.kindName
        case .object, .map: "map"
        case .list: "list"
        case .checked(let elements): elements.isMap ? "map" : "list"
        case .omitted: "nothing"
        }
    }
}

/// One entry of a mapped map.
struct MapEntry: Sendable {
    /// The key, as stored (percent-encoded when the mapping options ask for it).
    var key: String
    var value: MappedValue
}

extension [MapEntry] {
    /// The entries' indices in the order of their keys, as the writer stores them.
    var keyOrder: [Int] {
        if count < 2 { return [Int](indices) }
        return indices.sorted { self[$0].key < self[$1].key }
    }
}

/// One object mapped from a document: the values of its type's stored properties by position
/// (`ObjectSchema.storedProperties`), and its `"$id"`.
struct MappedObject: Sendable {
    /// The object's type, as the mapper knew it.
    let type: ObjectSchemaBox
    /// One slot per stored property, then one for `"$id"`: kept in the same array so that an object
    /// is one allocation, and a `MappedValue` stays two words.
    private(set) var slots: [MappedValue?]

    init(type: ObjectSchemaBox) {
        self.type = type
        slots = Array(repeating: nil, count: type.storedCount + 1)
    }

    /// The value given for the stored property at `position`.
    subscript(position: Int) -> MappedValue? {
        get { slots[position] }
        set { slots[position] = newValue }
    }

    /// The document's `"$id"`, if it has one.
    var id: Value? {
        get {
            guard case .plain(let id)? = slots[type.storedCount] else { return nil }
            return id
        }
        set { slots[type.storedCount] = newValue.map(MappedValue.plain) }
    }

    /// The object's properties by name, with `"$id"` when it has one.
    var fields: [String: Value] {
        var fields = [String: Value](minimumCapacity: slots.count)
        for (position, name) in type.storedNames.enumerated() {
            if let value = slots[position], !value.isOmitted { fields[name] = value.value }
        }
        if let id { fields["$id"] = id }
        return fields
    }

    /// The object's properties as a `.map`, with `"$id"` when it has one.
    var value: Value { .map(fields) }
}

/// One object type of a mapper's schema, kept in a box so that finding it copies nothing, with
/// where each property's value goes in a `MappedObject`.
final class ObjectSchemaBox: Sendable {
    let schema: ObjectSchema
    /// The stored properties' names, in stored order.
    let storedNames: [String]
    /// For each property (in `schema.properties` order), its position among the stored ones, or -1.
    let storedPositions: [Int]
    /// Each property's type (in `schema.properties` order): read here, mapping a value copies no
    /// `Property`, whose copy cost a reference count for it, its name and its type.
    let propertyTypes: [PropertyType]

    var storedCount: Int { storedNames.count }

    init(_ schema: ObjectSchema) {
        self.schema = schema
        storedNames = schema.storedProperties.map(\.name)
        var positions: [Int] = []
        var next = 0
        for property in schema.properties {
            positions.append(property.isComputed ? -1 : next)
            if !property.isComputed { next += 1 }
        }
        storedPositions = positions
        propertyTypes = schema.properties.map(\.type)
    }
}
