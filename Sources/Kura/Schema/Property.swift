/// One property of an object type.
///
/// A value type whose parts live in one shared immutable box: mapping and writing pass properties
/// around for every value, and copying one then costs a single reference count, not one per part.
public struct Property: Sendable, Hashable {
    private final class Parts: Sendable {
        let name: String
        let type: PropertyType
        let defaultValue: DefaultValue?
        let isIndexed: Bool
        let isAutoIncrement: Bool
        let renamedFrom: String?

        init(name: String, type: PropertyType, defaultValue: DefaultValue?, isIndexed: Bool, isAutoIncrement: Bool, renamedFrom: String?) {
            self.name = name
            self.type = type
            self.defaultValue = defaultValue
            self.isIndexed = isIndexed
            self.isAutoIncrement = isAutoIncrement
            self.renamedFrom = renamedFrom
        }
    }

    private var parts: Parts

    /// The property's name.
    public var name: String {
        get { parts.name }
        set { parts = Parts(name: newValue, type: type, defaultValue: defaultValue, isIndexed: isIndexed, isAutoIncrement: isAutoIncrement, renamedFrom: renamedFrom) }
    }
    /// The property's type.
    public var type: PropertyType {
        get { parts.type }
        set { parts = Parts(name: name, type: newValue, defaultValue: defaultValue, isIndexed: isIndexed, isAutoIncrement: isAutoIncrement, renamedFrom: renamedFrom) }
    }
    /// The value a new object takes when none is given.
    public var defaultValue: DefaultValue? {
        get { parts.defaultValue }
        set { parts = Parts(name: name, type: type, defaultValue: newValue, isIndexed: isIndexed, isAutoIncrement: isAutoIncrement, renamedFrom: renamedFrom) }
    }
    /// Whether the property has an index for fast lookups.
    public var isIndexed: Bool {
        get { parts.isIndexed }
        set { parts = Parts(name: name, type: type, defaultValue: defaultValue, isIndexed: newValue, isAutoIncrement: isAutoIncrement, renamedFrom: renamedFrom) }
    }
    /// Whether the primary key is assigned from a per-type counter.
    public var isAutoIncrement: Bool {
        get { parts.isAutoIncrement }
        set { parts = Parts(name: name, type: type, defaultValue: defaultValue, isIndexed: isIndexed, isAutoIncrement: newValue, renamedFrom: renamedFrom) }
    }
    /// The property's name in the previous schema version, for migrations.
    public var renamedFrom: String? {
        get { parts.renamedFrom }
        set { parts = Parts(name: name, type: type, defaultValue: defaultValue, isIndexed: isIndexed, isAutoIncrement: isAutoIncrement, renamedFrom: newValue) }
    }

    /// Makes a property.
    public init(
        name: String, type: PropertyType, defaultValue: DefaultValue? = nil, isIndexed: Bool = false,
        isAutoIncrement: Bool = false, renamedFrom: String? = nil
    ) {
        parts = Parts(
            name: name, type: type, defaultValue: defaultValue, isIndexed: isIndexed, isAutoIncrement: isAutoIncrement,
            renamedFrom: renamedFrom)
    }

    /// Whether the property is computed from links elsewhere and not stored.
    public var isComputed: Bool {
        if case .linkingObjects = type { return true }
        return false
    }

    public static func == (lhs: Property, rhs: Property) -> Bool {
        if lhs.parts === rhs.parts { return true }
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
