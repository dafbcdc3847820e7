import Foundation

/// Writes a schema in the YAML format of SPEC §2, in short form where a property needs nothing more.
enum SchemaWriter {
    static func yaml(for schema: Schema) -> String {
        var out = "schemaVersion: \(schema.version)\ntypes:\n"
        for type in schema.types {
            out += "  \(type.name):\n"
            if type.isEmbedded { out += "    embedded: true\n" }
            if type.isAsymmetric { out += "    asymmetric: true\n" }
            if let key = type.primaryKey { out += "    primaryKey: \(key)\n" }
            out += "    properties:\n"
            for property in type.properties {
                out += "      \(property.name): \(entry(for: property))\n"
            }
        }
        return out
    }

    private static func entry(for property: Property) -> String {
        if case .linkingObjects(let type, let name) = property.type {
            return "{ linkingObjects: \(type).\(name) }"
        }
        var attributes: [String] = []
        if let defaultValue = property.defaultValue { attributes.append("default: \(literal(defaultValue))") }
        if property.isIndexed { attributes.append("indexed: true") }
        if property.isAutoIncrement { attributes.append("autoIncrement: true") }
        if let renamed = property.renamedFrom { attributes.append("renamedFrom: \(renamed)") }
        if attributes.isEmpty { return property.type.description }
        return "{ type: \"\(property.type)\", " + attributes.joined(separator: ", ") + " }"
    }

    private static func literal(_ defaultValue: DefaultValue) -> String {
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
