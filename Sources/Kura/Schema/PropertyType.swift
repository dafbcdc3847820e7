/// The type of a property, as written in a schema file (`int`, `string?`, `list<Dog>`, `Dog?`, …).
public indirect enum PropertyType: Sendable, Hashable, CustomStringConvertible {
    case bool, int, float, double, string, date, data, decimal, objectId, uuid
    /// Any value, including nested lists and maps; always nullable.
    case mixed
    /// An object of the named type: a link, or an embedded object if that type is embedded.
    case object(String)
    case optional(PropertyType)
    case list(PropertyType)
    case set(PropertyType)
    case map(PropertyType)
    /// The computed backlinks from `type.property` to this object.
    case linkingObjects(type: String, property: String)

    /// The scalar type names of the schema format.
    public static let scalarNames: [String: PropertyType] = [
        "bool": .bool, "int": .int, "float": .float, "double": .double, "string": .string,
        "date": .date, "data": .data, "decimal": .decimal, "objectId": .objectId, "uuid": .uuid,
        "mixed": .mixed,
    ]

    /// Parses the short form (`list<string?>`, `Dog?`); `nil` if the text is not a type expression.
    /// Names of object types are returned as `.object` and checked later against the schema.
    public static func parse(_ text: String) -> PropertyType? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for (keyword, make) in [("list<", PropertyType.list), ("set<", PropertyType.set), ("map<", PropertyType.map)]
        where trimmed.hasPrefix(keyword) {
            guard trimmed.hasSuffix(">") else { return nil }
            let inner = trimmed.dropFirst(keyword.count).dropLast()
            guard let element = parseElement(String(inner)) else { return nil }
            return make(element)
        }
        return parseElement(trimmed)
    }

    /// The name in a type expression, without `list<…>` or `?` around it; `nil` for an unclosed `<`.
    static func namePart(of text: String) -> String? {
        var name = text.trimmingCharacters(in: .whitespaces)
        for keyword in ["list<", "set<", "map<"] where name.hasPrefix(keyword) {
            guard name.hasSuffix(">") else { return nil }
            name = String(name.dropFirst(keyword.count).dropLast()).trimmingCharacters(in: .whitespaces)
            break
        }
        if name.hasSuffix("?") { name.removeLast() }
        return name
    }

    private static func parseElement(_ text: String) -> PropertyType? {
        var name = text.trimmingCharacters(in: .whitespaces)
        var optional = false
        if name.hasSuffix("?") {
            optional = true
            name.removeLast()
        }
        guard Identifier.isValid(name) else { return nil }
        let base = scalarNames[name] ?? .object(name)
        if case .mixed = base { return .mixed }
        return optional ? .optional(base) : base
    }

    public var description: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .decimal: "decimal"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .mixed: "mixed"
        case .object(let name): name
        case .optional(let wrapped): "\(wrapped)?"
        case .list(let element): "list<\(element)>"
        case .set(let element): "set<\(element)>"
        case .map(let element): "map<\(element)>"
        case .linkingObjects(let type, let property): "linkingObjects<\(type).\(property)>"
        }
    }

    /// Whether `null` is a valid value (optional types and `mixed`).
    public var isNullable: Bool {
        switch self {
        case .optional, .mixed: true
        default: false
        }
    }

    /// The type without its optional marker.
    public var nonOptional: PropertyType {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    /// The element type of a list, set or map; `nil` for other types.
    public var element: PropertyType? {
        switch self {
        case .list(let element), .set(let element), .map(let element): element
        default: nil
        }
    }

    /// Whether this is a list, set or map.
    public var isCollection: Bool { element != nil }

    /// The object type this type refers to (directly, optionally, or as collection elements).
    public var objectTypeName: String? {
        switch self {
        case .object(let name): name
        case .optional(let wrapped): wrapped.objectTypeName
        case .list(let element), .set(let element), .map(let element): element.objectTypeName
        default: nil
        }
    }
}
