import Foundation

/// Writes a schema in the YAML format of docs/schema.md, in short form where a property needs nothing more.
enum SchemaWriter {
    static func yaml(for schema: Schema) -> String { storedForm(of: schema).text }

    /// The YAML text and, for each of its lines, the type and property it writes (`nil` for the
    /// lines of no type or no property), so that a line of the text can be traced to its source.
    static func storedForm(of schema: Schema) -> (text: String, lines: [(type: String?, property: String?)]) {
        var out = "schemaVersion: \(schema.version)\ntypes:\n"
        var lines: [(type: String?, property: String?)] = [(nil, nil), (nil, nil)]
        for type in schema.types {
            out += "  \(name(type.name)):\n"
            if type.isEmbedded { out += "    embedded: true\n" }
            if type.isAsymmetric { out += "    asymmetric: true\n" }
            if let key = type.primaryKey { out += "    primaryKey: \(name(key))\n" }
            out += "    properties:\n"
            let header = 2 + (type.isEmbedded ? 1 : 0) + (type.isAsymmetric ? 1 : 0) + (type.primaryKey == nil ? 0 : 1)
            lines += Array(repeating: (type.name, nil), count: header)
            for property in type.properties {
                out += "      \(name(property.name)): \(entry(for: property))\n"
                lines.append((type.name, property.name))
            }
        }
        return (out, lines)
    }

    /// A name as a YAML key or value: plain, unless YAML would read the plain word as something
    /// other than that string (`null`, `true`, `yes`...) or the name is not an identifier at all.
    static func name(_ name: String) -> String {
        guard Identifier.isValid(name), !yamlWords.contains(Identifier.sqlFolded(name)) else { return quoted(name) }
        return name
    }

    /// Plain words some YAML reader takes for null or a boolean.
    private static let yamlWords: Set<String> = ["null", "true", "false", "yes", "no", "on", "off", "y", "n"]

    static func entry(for property: Property) -> String {
        if case .linkingObjects(let type, let name) = property.type {
            return "{ linkingObjects: \(type).\(name) }"
        }
        var attributes: [String] = []
        if let defaultValue = property.defaultValue { attributes.append("default: \(literal(defaultValue))") }
        if property.isIndexed { attributes.append("indexed: true") }
        if property.isAutoIncrement { attributes.append("autoIncrement: true") }
        if let renamed = property.renamedFrom { attributes.append("renamedFrom: \(name(renamed))") }
        if attributes.isEmpty { return property.type.description }
        return "{ type: \"\(property.type)\", " + attributes.joined(separator: ", ") + " }"
    }

    /// A default as the stored form writes it.
    static func literal(_ defaultValue: DefaultValue) -> String {
        switch defaultValue {
        case .now: return "now"
        case .uuid: return "uuid"
        case .value(let value):
            switch value {
            case .null: return "null"
            case .bool(let flag): return flag ? "true" : "false"
            case .int(let number): return String(number)
            case .float(let number): return yamlNumber(Double(number))
            case .double(let number): return yamlNumber(number)
            case .string(let text): return quoted(text)
            case .date(let date): return DateFormatting.iso8601(date)
            case .data(let bytes): return "!!binary \(quoted(bytes.base64EncodedString()))"
            case .decimal(let number): return quoted(number.description)
            case .objectId(let id): return quoted(id.hexString)
            case .uuid(let id): return quoted(id.uuidString.lowercased())
            case .list, .map, .object: return "null"
            }
        }
    }

    private static func yamlNumber(_ number: Double) -> String {
        if number.isNaN { return ".nan" }
        if number.isInfinite { return number < 0 ? "-.inf" : ".inf" }
        let text = "\(number)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// A double-quoted YAML scalar (JSON string syntax is valid YAML).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    out += String(format: "\\x%02x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
