import Yams

extension Schema {
    /// The schema as JSON, with the structure and member order of its YAML (`yaml`) and each value
    /// as a YAML reader takes that text: `{"schemaVersion": 1, "types": {"Dog": {"properties": …}}}`.
    public var json: String { SchemaJSONWriter.json(for: self) }
}

/// Writes a schema as JSON straight from the model, member by member as `SchemaWriter` writes its
/// YAML. A value the YAML writes plain (unquoted) takes the type YAML's resolution gives that text
/// (`null`, `true`, a number, else a string), so the JSON says what a YAML reader of the schema sees.
enum SchemaJSONWriter {
    static func json(for schema: Schema) -> String {
        let types = schema.types.map { type in (type.name, json(for: type)) }
        return object([("schemaVersion", plain(String(schema.version))), ("types", types.isEmpty ? plain("") : object(types))])
    }

    private static func json(for type: ObjectSchema) -> String {
        var members: [(String, String)] = []
        if type.isEmbedded { members.append(("embedded", "true")) }
        if type.isAsymmetric { members.append(("asymmetric", "true")) }
        if let key = type.primaryKey { members.append(("primaryKey", name(key))) }
        let properties = type.properties.map { property in (property.name, entry(for: property)) }
        members.append(("properties", properties.isEmpty ? plain("") : object(properties)))
        return object(members)
    }

    private static func entry(for property: Property) -> String {
        if case .linkingObjects(let type, let name) = property.type {
            return object([("linkingObjects", plain("\(type).\(name)"))])
        }
        var members = [("type", string(property.type.description))]
        if let defaultValue = property.defaultValue { members.append(("default", literal(defaultValue))) }
        if property.isIndexed { members.append(("indexed", "true")) }
        if property.isAutoIncrement { members.append(("autoIncrement", "true")) }
        if let renamed = property.renamedFrom { members.append(("renamedFrom", name(renamed))) }
        if members.count == 1 { return plain(property.type.description) }
        return object(members)
    }

    /// A default as the YAML's reader takes what `SchemaWriter.literal` writes.
    private static func literal(_ defaultValue: DefaultValue) -> String {
        switch defaultValue {
        case .now: return plain("now")
        case .uuid: return plain("uuid")
        case .value(let value):
            switch value {
            case .string(let text): return string(text)
            case .data(let bytes): return string(bytes.base64EncodedString())
            case .decimal(let number): return string(number.description)
            case .objectId(let id): return string(id.hexString)
            case .uuid(let id): return string(id.uuidString.lowercased())
            default: return plain(SchemaWriter.literal(defaultValue))
            }
        }
    }

    /// A name as a value: the YAML quotes the names a reader would take for something else.
    private static func name(_ name: String) -> String {
        SchemaWriter.name(name) == name ? plain(name) : string(name)
    }

    /// A plain YAML scalar's text as JSON, by the tag YAML's resolution gives it.
    private static func plain(_ text: String) -> String {
        let node = Node.scalar(Node.Scalar(text))
        let tag = node.tag
        if tag == Tag(.null) { return "null" }
        if tag == Tag(.bool), let value = node.bool { return value ? "true" : "false" }
        if tag == Tag(.int), let value = node.int { return String(value) }
        if tag == Tag(.float), let value = node.float, value.isFinite { return String(value) }
        return string(text)
    }

    private static func string(_ text: String) -> String { JSONString.literal(text) }

    private static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(JSONString.literal($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
