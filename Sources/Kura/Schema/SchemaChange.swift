/// One difference between the schema a realm stores and the schema it is migrated to.
public struct SchemaChange: Sendable, Hashable, CustomStringConvertible {
    /// What changed.
    public enum Kind: Sendable, Hashable {
        case typeAdded
        /// The type and every object of it are removed.
        case typeRemoved
        case madeEmbedded
        case madeTopLevel
        case madeAsymmetric
        case madeQueryable
        case primaryKeyAdded
        case primaryKeyChanged(from: String)
        /// `property` is the former key, which stays an ordinary property.
        case primaryKeyRemoved
        case propertyAdded(Fill)
        case propertyRemoved
        case propertyRenamed(from: String)
        case typeChanged(from: PropertyType, to: PropertyType)
        /// An optional property becomes required; the fill says what replaces stored nulls.
        case madeRequired(Fill)
        case madeOptional
        case indexAdded
        case indexRemoved
        case autoIncrementAdded
        case autoIncrementRemoved
        case defaultChanged
        /// A computed linkingObjects property was added, removed or changed: no stored data changes.
        case linkingObjectsChanged
    }

    /// What the existing objects hold in a property that gets no values from the old schema.
    public enum Fill: Sendable, Hashable {
        /// `null` (optional and mixed properties).
        case null
        /// An empty list, set or map.
        case empty
        /// The property's fixed default.
        case value(Value)
        /// The time of the migration (`default: now`).
        case now
        /// A fresh UUID for each object (`default: uuid`).
        case uuid
        /// Numbers from the type's counter, in creation order (`autoIncrement` keys).
        case autoIncrement
        /// Nothing: a required property without a default, which existing objects cannot have.
        case missing
    }

    /// The object type that changes.
    public let type: String
    /// The property that changes, for property and primary key changes.
    public let property: String?
    /// What changes.
    public let kind: Kind

    /// Makes a change.
    public init(type: String, property: String? = nil, _ kind: Kind) {
        self.type = type
        self.property = property
        self.kind = kind
    }

    /// `Type` or `Type.property`.
    public var path: String { property.map { "\(type).\($0)" } ?? type }

    /// Whether the change applies when a realm is opened, with no migration: new types, new optional,
    /// collection or defaulted properties, index, default, autoIncrement and linkingObjects changes.
    public var isAdditive: Bool {
        switch kind {
        case .typeAdded, .indexAdded, .indexRemoved, .autoIncrementAdded, .autoIncrementRemoved, .defaultChanged,
            .linkingObjectsChanged:
            true
        case .propertyAdded(let fill): fill != .missing && fill != .autoIncrement
        default: false
        }
    }

    /// What changed, in a few words: `primary key added`, `renamed from name`.
    public var summary: String {
        switch kind {
        case .typeAdded: "type added"
        case .typeRemoved: "type removed"
        case .madeEmbedded: "made embedded"
        case .madeTopLevel: "no longer embedded"
        case .madeAsymmetric: "made asymmetric"
        case .madeQueryable: "no longer asymmetric"
        case .primaryKeyAdded: "primary key added"
        case .primaryKeyChanged(let from): "primary key changed from \(from)"
        case .primaryKeyRemoved: "primary key removed"
        case .propertyAdded(let fill): fill == .missing ? "required property added" : "property added"
        case .propertyRemoved: "property removed"
        case .propertyRenamed(let from): "renamed from \(from)"
        case .typeChanged(let from, let to): "type changed from \(from) to \(to)"
        case .madeRequired: "optional to required"
        case .madeOptional: "required to optional"
        case .indexAdded: "index added"
        case .indexRemoved: "index removed"
        case .autoIncrementAdded: "autoIncrement added"
        case .autoIncrementRemoved: "autoIncrement removed"
        case .defaultChanged: "default changed"
        case .linkingObjectsChanged: "linkingObjects changed"
        }
    }

    /// `Type.property: summary`.
    public var description: String { "\(path): \(summary)" }
}
