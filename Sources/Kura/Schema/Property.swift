/// One property of an object type.
///
/// A value type whose parts live in one shared immutable box: mapping and writing pass properties
/// around for every value, and copying one then costs a single reference count, not one per part.
public struct Property: Sendable, Hashable {
    /// The parts of a property, as stored in the box.
    private struct Parts: Sendable {
        var name: String
        var type: PropertyType
        var defaultValue: DefaultValue?
        var isIndexed: Bool
        var isAutoIncrement: Bool
        var renamedFrom: String?
    }

    private final class Box: Sendable {
        let parts: Parts
        init(_ parts: Parts) { self.parts = parts }
    }

    private var box: Box

    /// The property's name.
    public var name: String {
        get { box.parts.name }
        set { update(\.name, newValue) }
    }
    /// The property's type.
    public var type: PropertyType {
        get { box.parts.type }
        set { update(\.type, newValue) }
    }
    /// The value a new object takes when none is given.
    public var defaultValue: DefaultValue? {
        get { box.parts.defaultValue }
        set { update(\.defaultValue, newValue) }
    }
    /// Whether the property has an index for fast lookups.
    public var isIndexed: Bool {
        get { box.parts.isIndexed }
        set { update(\.isIndexed, newValue) }
    }
    /// Whether the primary key is assigned from a per-type counter.
    public var isAutoIncrement: Bool {
        get { box.parts.isAutoIncrement }
        set { update(\.isAutoIncrement, newValue) }
    }
    /// The property's name in the previous schema version, for migrations.
    public var renamedFrom: String? {
        get { box.parts.renamedFrom }
        set { update(\.renamedFrom, newValue) }
    }

    /// Makes a property.
    public init(
        name: String, type: PropertyType, defaultValue: DefaultValue? = nil, isIndexed: Bool = false,
        isAutoIncrement: Bool = false, renamedFrom: String? = nil
    ) {
        box = Box(Parts(
            name: name, type: type, defaultValue: defaultValue, isIndexed: isIndexed, isAutoIncrement: isAutoIncrement,
            renamedFrom: renamedFrom))
    }

    /// Changes one part in a box of this property's own (the box is shared, so never changed in place).
    private mutating func update<Part>(_ part: WritableKeyPath<Parts, Part>, _ value: Part) {
        var parts = box.parts
        parts[keyPath: part] = value
        box = Box(parts)
    }

    /// Whether the property is computed from links elsewhere and not stored.
    public var isComputed: Bool {
        if case .linkingObjects = type { return true }
        return false
    }

    public static func == (lhs: Property, rhs: Property) -> Bool {
        if lhs.box === rhs.box { return true }
        return lhs.name == rhs.name && lhs.type == rhs.type && lhs.defaultValue == rhs.defaultValue
            && lhs.isIndexed == rhs.isIndexed && lhs.isAutoIncrement == rhs.isAutoIncrement && lhs.renamedFrom == rhs.renamedFrom
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(type)
        hasher.combine(defaultValue)
        hasher.combine(isIndexed)
        hasher.combine(isAutoIncrement)
        hasher.combine(renamedFrom)
    }
}

/// The default of a property: a fixed value, or a value generated for each new object.
public enum DefaultValue: Sendable, Hashable {
    case value(Value)
    /// The current time (date properties).
    case now
    /// A fresh random UUID (uuid properties).
    case uuid
}
