/// One object type as the writer uses it, compiled once per schema: its stored properties with
/// what writing each one needs, and its statements. A class, and so are its properties: the writer
/// reaches them for every object and value, and copying `ObjectSchema` and `Property` values there
/// cost a reference count for each of their parts, and finding them by name a string hash.
final class StoredType: Sendable {
    let schema: ObjectSchema
    let name: String
    /// The type's position in `SchemaCatalog.storedTypes`.
    let index: Int
    let statements: WriteStatements
    /// The stored properties, in stored order.
    let properties: [StoredProperty]
    /// The properties stored in the object's own row (all but collections), in stored order.
    let columns: [StoredProperty]
    /// The collection properties, in stored order.
    let collections: [StoredProperty]
    /// Each stored property's position in `properties`, by name.
    let positions: PropertyPositions
    /// The primary key property, if any.
    let key: StoredProperty?
    let isEmbedded: Bool
    let isAsymmetric: Bool

    init(_ schema: ObjectSchema, index: Int, statements: WriteStatements, typeIndexes: [String: Int]) {
        self.schema = schema
        name = schema.name
        self.index = index
        self.statements = statements
        properties = schema.storedProperties.enumerated().map { position, property in
            StoredProperty(
                property, position: position, isKey: property.name == schema.primaryKey, statements: statements,
                typeIndexes: typeIndexes)
        }
        columns = properties.filter { !$0.isCollection }
        collections = properties.filter(\.isCollection)
        positions = PropertyPositions(properties.map(\.name))
        key = properties.first { $0.isKey }
        isEmbedded = schema.isEmbedded
        isAsymmetric = schema.isAsymmetric
    }
}

/// One stored property as the writer uses it.
final class StoredProperty: Sendable {
    /// How a property's value is written.
    enum Kind: Sendable {
        /// A scalar column, encoded as `StoredProperty.scalarType`.
        case scalar
        /// A value column and a tag column.
        case mixed
        /// A to-one link to the type at this index of `SchemaCatalog.storedTypes`.
        case link(target: Int)
        /// Rows in a table of its own.
        case collection
    }

    enum CollectionKind: Sendable {
        case list, set, map
    }

    let property: Property
    let name: String
    /// The property's position among its type's stored properties.
    let position: Int
    let kind: Kind
    /// Whether the property is its type's primary key.
    let isKey: Bool
    /// Whether `null` may be stored.
    let isNullable: Bool
    /// The type without its optional marker: what a scalar is encoded as.
    let scalarType: PropertyType
    /// The linked type's position in `SchemaCatalog.storedTypes`, for a link or a collection of links.
    let target: Int?
    /// For a collection, its kind and its element type (`nil` for other properties).
    let collection: CollectionKind?
    let elementType: PropertyType?
    /// Whether a collection's elements are mixed values.
    let hasMixedElements: Bool
    /// For a collection, its statements: the one at index k − 1 inserts k elements.
    let collectionInserts: [WriteStatements.Slot]
    /// For a collection, the bulk form of its inserts.
    let collectionBulkInsert: WriteStatements.BulkInsert?
    /// The value a new object takes when none is given (`Property.defaultValue`), kept here so that
    /// defaulting a value copies no `Property`.
    let defaultValue: DefaultValue?

    init(_ property: Property, position: Int, isKey: Bool, statements: WriteStatements, typeIndexes: [String: Int]) {
        self.property = property
        name = property.name
        self.position = position
        self.isKey = isKey
        isNullable = property.type.isNullable
        scalarType = property.type.nonOptional
        target = property.type.objectTypeName.flatMap { typeIndexes[$0] }
        if property.type.isCollection {
            kind = .collection
        } else if case .mixed = scalarType {
            kind = .mixed
        } else if case .object = scalarType, let target {
            kind = .link(target: target)
        } else {
            kind = .scalar
        }
        switch property.type {
        case .list(let element): (collection, elementType) = (.list, element)
        case .set(let element): (collection, elementType) = (.set, element)
        case .map(let element): (collection, elementType) = (.map, element)
        default: (collection, elementType) = (nil, nil)
        }
        if case .mixed? = elementType { hasMixedElements = true } else { hasMixedElements = false }
        collectionInserts = statements.collectionInserts[property.name] ?? []
        collectionBulkInsert = statements.collectionBulkInserts[property.name]
        defaultValue = property.defaultValue
    }

    var type: PropertyType { property.type }

    var isCollection: Bool {
        if case .collection = kind { return true }
        return false
    }
}
