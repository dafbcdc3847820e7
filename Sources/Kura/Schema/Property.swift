/// One property of an object type.
public struct Property: Sendable, Hashable {
    /// The property's name.
    public var name: String
    /// The property's type.
    public var type: PropertyType
    /// The value a new object takes when none is given.
    public var defaultValue: DefaultValue?
    /// Whether the property has an index for fast lookups.
    public var isIndexed: Bool
    /// Whether the primary key is assigned from a per-type counter.
    public var isAutoIncrement: Bool
    /// The property's name in the previous schema version, for migrations.
    public var renamedFrom: String?

    /// Makes a property.
    public init(
        name: String, type: PropertyType, defaultValue: DefaultValue? = nil, isIndexed: Bool = false,
        isAutoIncrement: Bool = false, renamedFrom: String? = nil
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        self.isAutoIncrement = isAutoIncrement
        self.renamedFrom = renamedFrom
    }

    /// Whether the property is computed from links elsewhere and not stored.
    public var isComputed: Bool {
        if case .linkingObjects = type { return true }
        return false
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
