/// The schema of one object type: its name, properties and flags.
public struct ObjectSchema: Sendable, Hashable {
    /// The type's name.
    public var name: String
    /// The properties, in declaration order.
    public var properties: [Property]
    /// The name of the primary key property, if any.
    public var primaryKey: String?
    /// Whether objects are owned by exactly one parent and deleted with it.
    public var isEmbedded: Bool
    /// Whether objects are write-only: inserted and exported, never queried or updated.
    public var isAsymmetric: Bool

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
    }

    /// The property named `name`.
    public subscript(property name: String) -> Property? {
        properties.first { $0.name == name }
    }

    /// The primary key property, if any.
    public var primaryKeyProperty: Property? {
        primaryKey.flatMap { self[property: $0] }
    }

    /// The properties that are stored, in order (all but linkingObjects).
    public var storedProperties: [Property] {
        properties.filter { !$0.isComputed }
    }
}
