/// The schema of one object type: its name, properties and flags.
public struct ObjectSchema: Sendable, Hashable {
    /// The type's name.
    public var name: String
    /// The properties, in declaration order.
    public var properties: [Property] {
        didSet { lookup = PropertyLookup(properties) }
    }
    /// The name of the primary key property, if any.
    public var primaryKey: String?
    /// Whether objects are owned by exactly one parent and deleted with it.
    public var isEmbedded: Bool
    /// Whether objects are write-only: inserted and exported, never queried or updated.
    public var isAsymmetric: Bool
    /// Derived from `properties` once, since mapping and writing ask for them for every value.
    private var lookup: PropertyLookup

    /// Makes an object schema.
    public init(
        name: String, properties: [Property], primaryKey: String? = nil, isEmbedded: Bool = false,
        isAsymmetric: Bool = false
    ) {
        self.name = name
        self.properties = properties
        self.primaryKey = primaryKey
        self.isEmbedded = isEmbedded
        self.isAsymmetric = isAsymmetric
        self.lookup = PropertyLookup(properties)
    }

    /// The property named `name`.
    public subscript(property name: String) -> Property? {
        lookup.positions[name].map { properties[$0] }
    }

    /// Where the property named `name` is in `properties`.
    func propertyIndex(_ name: String) -> Int? { lookup.positions[name] }

    /// Whether a new object needs `property` given: it is neither optional, a collection, defaulted,
    /// nor an autoIncrement primary key (which the realm's counter fills).
    func requiresValue(for property: Property) -> Bool {
        if property.type.isNullable || property.type.isCollection || property.defaultValue != nil { return false }
        return !(property.name == primaryKey && property.isAutoIncrement)
    }

    /// The primary key property, if any.
    public var primaryKeyProperty: Property? {
        primaryKey.flatMap { self[property: $0] }
    }

    /// The properties that are stored, in order (all but linkingObjects).
    public var storedProperties: [Property] { lookup.stored }

    public static func == (lhs: ObjectSchema, rhs: ObjectSchema) -> Bool {
        lhs.name == rhs.name && lhs.properties == rhs.properties && lhs.primaryKey == rhs.primaryKey
            && lhs.isEmbedded == rhs.isEmbedded && lhs.isAsymmetric == rhs.isAsymmetric
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(properties)
        hasher.combine(primaryKey)
        hasher.combine(isEmbedded)
        hasher.combine(isAsymmetric)
    }
}

/// Where each property is, and which are stored.
private struct PropertyLookup: Sendable {
    /// The first property of each name wins, as a dictionary built in order would keep it.
    let positions: PropertyPositions
    let stored: [Property]

    init(_ properties: [Property]) {
        positions = PropertyPositions(properties.map(\.name))
        self.stored = properties.filter { !$0.isComputed }
    }
}
