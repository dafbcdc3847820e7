import Kura

/// The JSON Schemas of one realm's documents, as PostgREST describes tables: for each type, the
/// document export writes (`componentName(realm, type)`) and the document a write takes
/// (`componentName(realm, type, "in")`), with the typed wrappers of docs/documents.md.
///
/// A link or an embedded object refers to its type's component, so a cycle of types is a cycle of
/// references and nothing here follows one.
struct DocumentSchemas {
    let realm: String
    let schema: Schema

    /// The name of the component of `type`'s documents as export writes them.
    func outputName(_ type: String) -> String { OpenAPISchemas.componentName(realm, type) }

    /// How a write takes a document.
    enum Write: String, CaseIterable {
        /// POST: a new object, so every required property is there.
        case create = "in"
        /// PUT: as create, but the URL gives the primary key.
        case replace = "put"
        /// PATCH: any properties, the URL giving the primary key.
        case update = "patch"
    }

    /// The name of the component of `type`'s documents as `write` takes them.
    func inputName(_ type: String, _ write: Write) -> String {
        OpenAPISchemas.componentName(realm, type, write.rawValue)
    }

    /// Every component of the realm, by name.
    var components: [(String, String)] {
        schema.types.flatMap { type in
            [(outputName(type.name), output(type))] + Write.allCases.map { (inputName(type.name, $0), input(type, $0)) }
        }
    }

    // MARK: Documents as export writes them

    private func output(_ type: ObjectSchema) -> String {
        var properties = type.storedProperties.map { ($0.name, output($0.type)) }
        var description = "A \(type.name) of realm '\(realm)' as export writes it"
        if type.primaryKey == nil && !type.isEmbedded {
            // An object reached twice, or in a cycle, carries "$id" where it is first written.
            properties.append(("$id", ValueSchemas.referenceID))
            properties.append(("$url", OpenAPISchemas.string))
            description += "; \"$id\" where the object is reached twice, \"$url\" with nestedUrls=true"
        }
        return JSONText.object([
            ("description", JSONText.string(description)), ("type", JSONText.string("object")),
            ("required", JSONText.array(type.storedProperties.map { JSONText.string($0.name) })),
            ("properties", JSONText.object(properties)), ("additionalProperties", "false"),
        ])
    }

    private func output(_ type: PropertyType) -> String {
        switch type {
        case .optional(let wrapped): return OpenAPISchemas.nullable(output(wrapped))
        case .list(let element), .set(let element): return OpenAPISchemas.array(output(element))
        case .map(let element): return OpenAPISchemas.map(output(element))
        case .object(let name): return outputLink(to: name)
        case .linkingObjects: return OpenAPISchemas.any
        default: return ValueSchemas.output(type)
        }
    }

    /// A link as export writes it: the key of an object with a primary key, the nested document
    /// of one without (or a `{"$ref"}` to where it was written first), an embedded object nested.
    private func outputLink(to name: String) -> String {
        guard let target = schema[type: name] else { return OpenAPISchemas.any }
        if let key = target.primaryKeyProperty { return ValueSchemas.output(key.type.nonOptional) }
        if target.isEmbedded { return OpenAPISchemas.ref(outputName(name)) }
        return OpenAPISchemas.anyOf([OpenAPISchemas.ref(outputName(name)), ValueSchemas.reference])
    }

    // MARK: Documents as writes take them

    private func input(_ type: ObjectSchema, _ write: Write) -> String {
        let keyInURL = write != .create && !type.isEmbedded
        let required = write == .update ? [] : type.storedProperties.filter(Self.isRequiredOnCreate).map(\.name)
        var properties = type.storedProperties.map { property in
            // The URL names the object: a body may leave its key out, and one with another key is refused.
            (property.name, keyInURL && property.name == type.primaryKey ? "false" : input(property.type))
        }
        // Backlinks are computed: a document's value for one is never read.
        properties += type.properties.filter(\.isComputed).map { ($0.name, OpenAPISchemas.any) }
        properties.append(("$type", OpenAPISchemas.oneOf([type.name])))
        properties.append(("$id", ValueSchemas.referenceID))
        let verb = switch write {
        case .create: "creates"
        case .replace: "replaces"
        case .update: "updates"
        }
        var members = [
            ("description", JSONText.string("A document that \(verb) a \(type.name) of realm '\(realm)'; other keys are ignored")),
            ("type", JSONText.string("object")),
        ]
        if !required.isEmpty { members.append(("required", JSONText.array(required.map(JSONText.string)))) }
        members.append(("properties", JSONText.object(properties)))
        return JSONText.object(members)
    }

    /// Whether a new object needs the property: a scalar that is neither optional nor has a
    /// default (an auto-increment key takes the next value).
    private static func isRequiredOnCreate(_ property: Property) -> Bool {
        !property.type.isNullable && !property.type.isCollection && property.defaultValue == nil && !property.isAutoIncrement
            && property.type.objectTypeName == nil
    }

    private func input(_ type: PropertyType) -> String {
        switch type {
        case .optional(let wrapped): return OpenAPISchemas.nullable(input(wrapped))
        // A collection given as null is empty.
        case .list(let element), .set(let element): return OpenAPISchemas.nullable(OpenAPISchemas.array(input(element)))
        case .map(let element): return OpenAPISchemas.map(input(element), keys: ValueSchemas.mapKey)
        case .object(let name): return inputLink(to: name)
        case .linkingObjects: return OpenAPISchemas.any
        default: return ValueSchemas.input(type)
        }
    }

    /// A link as a write takes it: a nested document (a new object, or the one its key names); the
    /// key of an object the realm holds, for a type with a primary key; for one without, also a
    /// `{"$ref"}` to an object written with that `"$id"` elsewhere in the same body.
    private func inputLink(to name: String) -> String {
        let nested = OpenAPISchemas.ref(inputName(name, .create))
        guard let target = schema[type: name], !target.isEmbedded else { return nested }
        if let key = target.primaryKeyProperty { return OpenAPISchemas.anyOf([ValueSchemas.input(key.type.nonOptional), nested]) }
        return OpenAPISchemas.anyOf([nested, ValueSchemas.reference])
    }
}
