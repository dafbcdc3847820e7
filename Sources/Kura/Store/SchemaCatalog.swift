/// Facts derived once from a realm's schema: stable type ids and who links to whom.
struct SchemaCatalog: Sendable {
    /// A property elsewhere that links to a type.
    struct IncomingLink: Sendable {
        let ownerType: String
        let property: Property
    }

    /// A property that holds mixed values (and so may hold links to any type).
    struct MixedSite: Sendable {
        let ownerType: String
        let property: Property
    }

    let schema: Schema
    let typeIds: [String: Int64]
    let typeNames: [Int64: String]
    let incoming: [String: [IncomingLink]]
    let mixedSites: [MixedSite]
    private let typesByName: [String: ObjectSchema]

    init(schema: Schema, typeIds: [String: Int64]) {
        self.schema = schema
        self.typeIds = typeIds
        var names: [Int64: String] = [:]
        for (name, id) in typeIds { names[id] = name }
        self.typeNames = names
        var incoming: [String: [IncomingLink]] = [:]
        var mixedSites: [MixedSite] = []
        var byName: [String: ObjectSchema] = [:]
        for type in schema.types {
            byName[type.name] = type
            for property in type.storedProperties {
                if let target = property.type.objectTypeName {
                    incoming[target, default: []].append(IncomingLink(ownerType: type.name, property: property))
                }
                if property.type == .mixed || property.type.element == .mixed {
                    mixedSites.append(MixedSite(ownerType: type.name, property: property))
                }
            }
        }
        self.incoming = incoming
        self.mixedSites = mixedSites
        self.typesByName = byName
    }

    /// The schema of type `name`, or an `unknownType` error.
    func type(_ name: String) throws(StoreError) -> ObjectSchema {
        guard let type = typesByName[name] else {
            throw StoreError(.unknownType, "the realm has no type '\(name)'")
        }
        return type
    }

    /// The property `name` of `type`, or an `unknownProperty` error.
    func property(_ name: String, of type: ObjectSchema) throws(StoreError) -> Property {
        guard let property = type[property: name] else {
            throw StoreError(.unknownProperty, "\(type.name) has no property '\(name)'")
        }
        return property
    }

    func typeId(_ name: String) throws(StoreError) -> Int64 {
        guard let id = typeIds[name] else { throw StoreError(.unknownType, "the realm has no type '\(name)'") }
        return id
    }

    func isEmbedded(_ name: String) -> Bool { typesByName[name]?.isEmbedded ?? false }
}
