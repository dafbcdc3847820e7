/// Checks a schema against the rules of docs/schema.md.
struct SchemaValidator {
    /// Why a schema is checked, which decides how strictly.
    enum Purpose {
        /// A schema given to create or migrate a realm: every rule, and the stored form must read back equal.
        case install
        /// A realm's stored schema read back: the rules of names added since a realm may have stored
        /// one (reserved words) are not applied, so that such a realm stays readable.
        case storedForm
    }

    let schema: Schema
    let locations: SchemaLocations
    var purpose: Purpose = .install

    func validate() throws(KuraError) {
        if schema.version < 0 {
            throw KuraError.schema(.invalidStructure, "schemaVersion must not be negative")
        }
        // By name folded as SQLite folds it: two tables whose names differ only in case cannot both exist.
        var seen: [String: String] = [:]
        for type in schema.types {
            let at = locations.type(type.name)
            if let problem = problem(withTypeName: type.name) {
                throw KuraError.schema(.invalidName, "invalid type name '\(type.name)': \(problem)", at: at)
            }
            if let other = seen.updateValue(type.name, forKey: Identifier.sqlFolded(type.name)) {
                guard other != type.name else {
                    throw KuraError.schema(.duplicateName, "type '\(type.name)' is defined twice", at: at)
                }
                throw KuraError.schema(
                    .duplicateName, "type '\(type.name)' differs from '\(other)' only in letter case, which SQLite cannot tell apart",
                    at: at)
            }
        }
        // Every link's target first, so that a misspelt one is reported where it is written, not
        // at a linkingObjects elsewhere that names the link.
        for type in schema.types { try validateTargets(of: type) }
        for type in schema.types { try validate(type) }
        if purpose == .install { try validateStoredForm() }
    }

    private func problem(withTypeName name: String) -> String? {
        if let problem = Identifier.problem(with: name) { return problem }
        if Identifier.sqlFolded(name).hasPrefix("sqlite_") { return "names starting with 'sqlite_' are reserved by SQLite" }
        guard purpose == .install else { return nil }
        if Identifier.isReserved(name) { return "'\(name)' is a reserved word" }
        if PropertyType.scalarNames[name] != nil { return "'\(name)' is the name of a scalar type" }
        return nil
    }

    private func problem(withPropertyName name: String) -> String? {
        if let problem = Identifier.problem(with: name) { return problem }
        if purpose == .install && Identifier.isReserved(name) { return "'\(name)' is a reserved word" }
        return nil
    }

    private func validateTargets(of type: ObjectSchema) throws(KuraError) {
        for property in type.properties where !property.isComputed {
            guard let target = property.type.objectTypeName, schema[type: target] == nil else { continue }
            throw KuraError.schema(
                .unknownType, "\(type.name).\(property.name): unknown type '\(target)'", at: locations.typeName(type.name, property.name))
        }
    }

    private func validate(_ type: ObjectSchema) throws(KuraError) {
        let typeLocation = locations.type(type.name)
        if type.isEmbedded && type.isAsymmetric {
            throw KuraError.schema(.invalidEmbedding, "\(type.name): a type cannot be both embedded and asymmetric", at: typeLocation)
        }
        let columns = Self.columnCount(of: type)
        if columns > SQLiteLimits.columns {
            throw KuraError.schema(
                .tooManyColumns,
                "type '\(type.name)' needs \(columns) columns, more than SQLite's limit of \(SQLiteLimits.columns) in one table "
                    + "(a column for its id, one for each property that is not a list, set, map or linkingObjects, two for a mixed one)",
                at: typeLocation)
        }
        var names: [String: String] = [:]
        for property in type.properties {
            let at = locations.property(type.name, property.name)
            if let problem = problem(withPropertyName: property.name) {
                throw KuraError.schema(.invalidName, "\(type.name): invalid property name '\(property.name)': \(problem)", at: at)
            }
            if let other = names.updateValue(property.name, forKey: Identifier.sqlFolded(property.name)) {
                guard other != property.name else {
                    throw KuraError.schema(.duplicateName, "\(type.name).\(property.name) is defined twice", at: at)
                }
                throw KuraError.schema(
                    .duplicateName,
                    "\(type.name).\(property.name) differs from '\(other)' only in letter case, which SQLite cannot tell apart",
                    at: at)
            }
            try validate(property, of: type, at: at)
        }
        try validatePrimaryKey(of: type)
    }

    /// The columns of the type's object table, as `SchemaInstaller.objectTableSQL` lays it out: the
    /// id, one for each stored property that is not a collection, and a tag column for a mixed one.
    static func columnCount(of type: ObjectSchema) -> Int {
        type.properties.reduce(1) { count, property in
            if property.isComputed || property.type.isCollection { return count }
            return count + (property.type == .mixed ? 2 : 1)
        }
    }

    private func validate(_ property: Property, of owner: ObjectSchema, at location: FilePosition?) throws(KuraError) {
        let path = "\(owner.name).\(property.name)"
        switch property.type {
        case .linkingObjects(let sourceType, let sourceProperty):
            try validateLinkingObjects(path, owner: owner, sourceType: sourceType, sourceProperty: sourceProperty, at: location)
        case .object(let target):
            guard schema[type: target] != nil else {
                throw KuraError.schema(.unknownType, "\(path): unknown type '\(target)'", at: locations.typeName(owner.name, property.name))
            }
            throw KuraError.schema(.invalidType, "\(path): a to-one link is always optional: write '\(target)?'", at: location)
        case .optional(let wrapped):
            try validateElement(wrapped, path: path, owner: owner, at: location)
        case .list(let element), .set(let element), .map(let element):
            try validateCollection(property.type, element: element, path: path, owner: owner, at: location)
        default:
            break
        }
        try validateAttributes(property, path: path, owner: owner, at: location)
    }

    private func validateElement(_ type: PropertyType, path: String, owner: ObjectSchema, at location: FilePosition?) throws(KuraError) {
        switch type {
        case .object(let target):
            guard let targetType = schema[type: target] else {
                throw KuraError.schema(.unknownType, "\(path): unknown type '\(target)'", at: locations.typeNames[path] ?? location)
            }
            if targetType.isAsymmetric {
                throw KuraError.schema(.invalidEmbedding, "\(path): '\(target)' is asymmetric and cannot be linked to", at: location)
            }
            if owner.isAsymmetric && !targetType.isEmbedded {
                throw KuraError.schema(
                    .invalidEmbedding, "\(path): an asymmetric type may link only to embedded types, not to '\(target)'",
                    at: location)
            }
        case .optional, .list, .set, .map, .linkingObjects:
            throw KuraError.schema(.invalidType, "\(path): '\(type)' cannot be nested here", at: location)
        default:
            break
        }
    }

    private func validateCollection(
        _ type: PropertyType, element: PropertyType, path: String, owner: ObjectSchema, at location: FilePosition?
    ) throws(KuraError) {
        try validateElement(element.nonOptional, path: path, owner: owner, at: location)
        guard let target = element.objectTypeName, let targetType = schema[type: target] else { return }
        if case .optional = element, case .map = type {
            return
        }
        if case .optional = element {
            throw KuraError.schema(.invalidType, "\(path): elements of object type in a list or set cannot be optional: write '\(target)'", at: location)
        }
        if case .set = type, targetType.isEmbedded {
            throw KuraError.schema(.invalidEmbedding, "\(path): a set cannot hold embedded objects", at: location)
        }
    }

    private func validateLinkingObjects(
        _ path: String, owner: ObjectSchema, sourceType: String, sourceProperty: String, at location: FilePosition?
    ) throws(KuraError) {
        guard let source = schema[type: sourceType] else {
            throw KuraError.schema(
                .invalidLinkingObjects, "\(path): linkingObjects names unknown type '\(sourceType)'",
                at: locations.typeNames[path] ?? location)
        }
        guard let origin = source[property: sourceProperty] else {
            throw KuraError.schema(
                .invalidLinkingObjects, "\(path): linkingObjects names unknown property '\(sourceType).\(sourceProperty)'",
                at: location)
        }
        guard origin.type.objectTypeName == owner.name, !origin.isComputed else {
            throw KuraError.schema(
                .invalidLinkingObjects,
                "\(path): '\(sourceType).\(sourceProperty)' does not link to '\(owner.name)' (it is \(origin.type))",
                at: location)
        }
        if owner.isEmbedded {
            throw KuraError.schema(.invalidLinkingObjects, "\(path): embedded types cannot have linkingObjects", at: location)
        }
    }

    private func validateAttributes(_ property: Property, path: String, owner: ObjectSchema, at location: FilePosition?) throws(KuraError) {
        if property.isAutoIncrement && (owner.primaryKey != property.name || property.type != .int) {
            throw KuraError.schema(.invalidAttribute, "\(path): autoIncrement is allowed only on an int primary key", at: location)
        }
        if property.isIndexed {
            switch property.type.nonOptional {
            case .bool, .int, .string, .date, .objectId, .uuid, .mixed, .decimal: break
            default:
                throw KuraError.schema(.invalidAttribute, "\(path): a property of type '\(property.type)' cannot be indexed", at: location)
            }
        }
        if let renamed = property.renamedFrom, !Identifier.isValid(renamed) {
            throw KuraError.schema(.invalidName, "\(path): renamedFrom '\(renamed)' is not a valid property name", at: location)
        }
        guard let defaultValue = property.defaultValue else { return }
        switch (defaultValue, property.type.nonOptional) {
        case (.now, .date), (.uuid, .uuid): return
        case (.now, _):
            throw KuraError.schema(.invalidDefault, "\(path): 'default: now' needs a date property, not \(property.type)", at: location)
        case (.uuid, _):
            throw KuraError.schema(.invalidDefault, "\(path): 'default: uuid' needs a uuid property, not \(property.type)", at: location)
        case (.value(let value), let type):
            guard DefaultValueCheck.accepts(value, for: type) else {
                throw KuraError.schema(.invalidDefault, "\(path): default \(value) is not a valid \(property.type)", at: location)
            }
        }
    }

    private func validatePrimaryKey(of type: ObjectSchema) throws(KuraError) {
        guard let key = type.primaryKey else { return }
        let at = locations.primaryKeys[type.name] ?? locations.type(type.name)
        if type.isEmbedded {
            throw KuraError.schema(.invalidPrimaryKey, "\(type.name): an embedded type cannot have a primary key", at: at)
        }
        guard let property = type[property: key] else {
            throw KuraError.schema(.invalidPrimaryKey, "\(type.name): primary key '\(key)' is not a property of the type", at: at)
        }
        switch property.type {
        case .int, .string, .uuid, .objectId: break
        default:
            throw KuraError.schema(
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
