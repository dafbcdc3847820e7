/// Checks a schema against the rules of SPEC §2.
struct SchemaValidator {
    let schema: Schema
    let locations: SchemaLocations

    func validate() throws(SchemaError) {
        if schema.version < 0 {
            throw SchemaError(.invalidStructure, "schemaVersion must not be negative")
        }
        var seen = Set<String>()
        for type in schema.types {
            guard Identifier.isValid(type.name) else {
                throw SchemaError(
                    .invalidName,
                    "invalid type name '\(type.name)': names start with a letter or '_' and hold only letters, digits and '_'",
                    at: locations.type(type.name))
            }
            guard seen.insert(type.name).inserted else {
                throw SchemaError(.duplicateName, "type '\(type.name)' is defined twice", at: locations.type(type.name))
            }
        }
        for type in schema.types { try validate(type) }
    }

    private func validate(_ type: ObjectSchema) throws(SchemaError) {
        let typeLocation = locations.type(type.name)
        if type.isEmbedded && type.isAsymmetric {
            throw SchemaError(.invalidEmbedding, "\(type.name): a type cannot be both embedded and asymmetric", at: typeLocation)
        }
        var names = Set<String>()
        for property in type.properties {
            let at = locations.property(type.name, property.name)
            guard Identifier.isValid(property.name) else {
                throw SchemaError(
                    .invalidName,
                    "\(type.name): invalid property name '\(property.name)': names start with a letter or '_' and hold only letters, digits and '_'",
                    at: at)
            }
            guard names.insert(property.name).inserted else {
                throw SchemaError(.duplicateName, "\(type.name).\(property.name) is defined twice", at: at)
            }
            try validate(property, of: type, at: at)
        }
        try validatePrimaryKey(of: type)
    }

    private func validate(_ property: Property, of owner: ObjectSchema, at location: SourceLocation?) throws(SchemaError) {
        let path = "\(owner.name).\(property.name)"
        switch property.type {
        case .linkingObjects(let sourceType, let sourceProperty):
            try validateLinkingObjects(path, owner: owner, sourceType: sourceType, sourceProperty: sourceProperty, at: location)
        case .object(let target):
            guard schema[type: target] != nil else {
                throw SchemaError(.unknownType, "\(path): unknown type '\(target)'", at: location)
            }
            throw SchemaError(.invalidType, "\(path): a to-one link is always optional: write '\(target)?'", at: location)
        case .optional(let wrapped):
            try validateElement(wrapped, path: path, owner: owner, at: location)
        case .list(let element), .set(let element), .map(let element):
            try validateCollection(property.type, element: element, path: path, owner: owner, at: location)
        default:
            break
        }
        try validateAttributes(property, path: path, owner: owner, at: location)
    }

    private func validateElement(_ type: PropertyType, path: String, owner: ObjectSchema, at location: SourceLocation?) throws(SchemaError) {
        switch type {
        case .object(let target):
            guard let targetType = schema[type: target] else {
                throw SchemaError(.unknownType, "\(path): unknown type '\(target)'", at: location)
            }
            if targetType.isAsymmetric {
                throw SchemaError(.invalidEmbedding, "\(path): '\(target)' is asymmetric and cannot be linked to", at: location)
            }
            if owner.isAsymmetric && !targetType.isEmbedded {
                throw SchemaError(
                    .invalidEmbedding, "\(path): an asymmetric type may link only to embedded types, not to '\(target)'",
                    at: location)
            }
        case .optional, .list, .set, .map, .linkingObjects:
            throw SchemaError(.invalidType, "\(path): '\(type)' cannot be nested here", at: location)
        default:
            break
        }
    }

    private func validateCollection(
        _ type: PropertyType, element: PropertyType, path: String, owner: ObjectSchema, at location: SourceLocation?
    ) throws(SchemaError) {
        try validateElement(element.nonOptional, path: path, owner: owner, at: location)
        guard let target = element.objectTypeName, let targetType = schema[type: target] else { return }
        if case .optional = element, case .map = type {
            return
        }
        if case .optional = element {
            throw SchemaError(.invalidType, "\(path): elements of object type in a list or set cannot be optional: write '\(target)'", at: location)
        }
        if case .set = type, targetType.isEmbedded {
            throw SchemaError(.invalidEmbedding, "\(path): a set cannot hold embedded objects", at: location)
        }
    }

    private func validateLinkingObjects(
        _ path: String, owner: ObjectSchema, sourceType: String, sourceProperty: String, at location: SourceLocation?
    ) throws(SchemaError) {
        guard let source = schema[type: sourceType] else {
            throw SchemaError(.invalidLinkingObjects, "\(path): linkingObjects names unknown type '\(sourceType)'", at: location)
        }
        guard let origin = source[property: sourceProperty] else {
            throw SchemaError(
                .invalidLinkingObjects, "\(path): linkingObjects names unknown property '\(sourceType).\(sourceProperty)'",
                at: location)
        }
        guard origin.type.objectTypeName == owner.name, !origin.isComputed else {
            throw SchemaError(
                .invalidLinkingObjects,
                "\(path): '\(sourceType).\(sourceProperty)' does not link to '\(owner.name)' (it is \(origin.type))",
                at: location)
        }
        if owner.isEmbedded {
            throw SchemaError(.invalidLinkingObjects, "\(path): embedded types cannot have linkingObjects", at: location)
        }
    }

    private func validateAttributes(_ property: Property, path: String, owner: ObjectSchema, at location: SourceLocation?) throws(SchemaError) {
        if property.isAutoIncrement && (owner.primaryKey != property.name || property.type != .int) {
            throw SchemaError(.invalidAttribute, "\(path): autoIncrement is allowed only on an int primary key", at: location)
        }
        if property.isIndexed {
            switch property.type.nonOptional {
            case .bool, .int, .string, .date, .objectId, .uuid, .mixed, .decimal: break
            default:
                throw SchemaError(.invalidAttribute, "\(path): a property of type '\(property.type)' cannot be indexed", at: location)
            }
        }
        if let renamed = property.renamedFrom, !Identifier.isValid(renamed) {
            throw SchemaError(.invalidName, "\(path): renamedFrom '\(renamed)' is not a valid property name", at: location)
        }
        guard let defaultValue = property.defaultValue else { return }
        switch (defaultValue, property.type.nonOptional) {
        case (.now, .date), (.uuid, .uuid): return
        case (.now, _):
            throw SchemaError(.invalidDefault, "\(path): 'default: now' needs a date property, not \(property.type)", at: location)
        case (.uuid, _):
            throw SchemaError(.invalidDefault, "\(path): 'default: uuid' needs a uuid property, not \(property.type)", at: location)
        case (.value(let value), let type):
            guard DefaultValueCheck.accepts(value, for: type) else {
                throw SchemaError(.invalidDefault, "\(path): default \(value) is not a valid \(property.type)", at: location)
            }
        }
    }

    private func validatePrimaryKey(of type: ObjectSchema) throws(SchemaError) {
        guard let key = type.primaryKey else { return }
        let at = locations.primaryKeys[type.name] ?? locations.type(type.name)
        if type.isEmbedded {
            throw SchemaError(.invalidPrimaryKey, "\(type.name): an embedded type cannot have a primary key", at: at)
        }
        guard let property = type[property: key] else {
            throw SchemaError(.invalidPrimaryKey, "\(type.name): primary key '\(key)' is not a property of the type", at: at)
        }
        switch property.type {
        case .int, .string, .uuid, .objectId: break
        default:
            throw SchemaError(
                .invalidPrimaryKey,
                "\(type.name).\(key): a primary key must be int, string, uuid or objectId, not \(property.type)", at: at)
        }
    }
}

/// Whether a fixed default value suits a property type.
enum DefaultValueCheck {
    static func accepts(_ value: Value, for type: PropertyType) -> Bool {
        switch (value, type) {
        case (.null, _): type.isNullable
        case (_, .mixed): true
        case (.bool, .bool), (.int, .int), (.string, .string), (.date, .date), (.data, .data),
            (.decimal, .decimal), (.objectId, .objectId), (.uuid, .uuid):
            true
        case (.int, .float), (.int, .double), (.double, .double), (.int, .decimal), (.double, .decimal): true
        case (.float, .float), (.float, .double): true
        case (.double(let number), .float): number.isFinite && abs(number) <= Double(Float.greatestFiniteMagnitude)
        default: false
        }
    }
}
