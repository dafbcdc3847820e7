import Foundation
import Yams

/// Reads the YAML schema format (docs/schema.md) into a `Schema`, remembering where each part was written.
struct SchemaParser {
    let file: String
    let purpose: SchemaValidator.Purpose
    private(set) var locations = SchemaLocations()
    /// The schema's lines, to place a name inside a scalar's text.
    private var lines: [Substring] = []

    init(file: String, purpose: SchemaValidator.Purpose = .install) {
        self.file = file
        self.purpose = purpose
    }

    mutating func parse(_ text: String) throws(KuraError) -> Schema {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw KuraError.schema(.invalidStructure, "the schema file is empty", at: FilePosition(file: file, line: 1, column: 1))
            }
            root = node
        } catch let error as KuraError where error.code.domain == .schema {
            throw error
        } catch {
            throw syntaxError(error)
        }
        let top = try mapping(root, "the schema")
        try checkKeys(top, allowed: ["schemaVersion", "types"], in: "the schema")
        var version: Int64 = 0
        if let versionNode = top["schemaVersion"] {
            guard tagName(versionNode) == .int, let parsed = Int64(versionNode.string ?? "") else {
                throw error(.invalidStructure, "schemaVersion must be an integer", versionNode)
            }
            version = parsed
        }
        guard let typesNode = top["types"] else {
            throw error(.invalidStructure, "the schema has no 'types'", root)
        }
        var types: [ObjectSchema] = []
        for (key, value) in try mapping(typesNode, "types") {
            let name = try scalarString(key, "a type name")
            locations.types[name] = location(key)
            types.append(try parseType(name, value))
        }
        let schema = Schema(version: version, types: types)
        try SchemaValidator(schema: schema, locations: locations, purpose: purpose).validate()
        return schema
    }

    private mutating func parseType(_ name: String, _ node: Node) throws(KuraError) -> ObjectSchema {
        let body = try mapping(node, "type '\(name)'")
        try checkKeys(body, allowed: ["primaryKey", "embedded", "asymmetric", "properties"], in: "type '\(name)'")
        var type = ObjectSchema(name: name, properties: [])
        if let keyNode = body["primaryKey"] {
            type.primaryKey = try scalarString(keyNode, "primaryKey")
            locations.primaryKeys[name] = location(keyNode)
        }
        type.isEmbedded = try flag(body["embedded"], "embedded")
        type.isAsymmetric = try flag(body["asymmetric"], "asymmetric")
        guard let propertiesNode = body["properties"] else {
            throw error(.invalidStructure, "type '\(name)' has no 'properties'", node)
        }
        // Gathered first and set once: setting `properties` indexes them again.
        var properties: [Property] = []
        for (key, value) in try mapping(propertiesNode, "\(name).properties") {
            let propertyName = try scalarString(key, "a property name")
            locations.properties["\(name).\(propertyName)"] = location(value)
            properties.append(try parseProperty(propertyName, of: name, value))
        }
        type.properties = properties
        return type
    }

    private mutating func parseProperty(_ name: String, of owner: String, _ node: Node) throws(KuraError) -> Property {
        let path = "\(owner).\(name)"
        if node.scalar != nil {
            return Property(name: name, type: try typeExpression(node, path))
        }
        let body = try mapping(node, path)
        if let origin = body["linkingObjects"] {
            try checkKeys(body, allowed: ["linkingObjects"], in: path)
            let text = try scalarString(origin, "linkingObjects")
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw error(.invalidLinkingObjects, "\(path): linkingObjects must be written 'Type.property', found '\(text)'", origin)
            }
            locations.typeNames[path] = location(of: String(parts[0]), at: 0, in: origin)
            return Property(name: name, type: .linkingObjects(type: String(parts[0]), property: String(parts[1])))
        }
        try checkKeys(body, allowed: ["type", "default", "indexed", "autoIncrement", "renamedFrom"], in: path)
        guard let typeNode = body["type"] else {
            throw error(.invalidStructure, "\(path): the long form needs a 'type'", node)
        }
        var property = Property(name: name, type: try typeExpression(typeNode, path))
        property.isIndexed = try flag(body["indexed"], "indexed")
        property.isAutoIncrement = try flag(body["autoIncrement"], "autoIncrement")
        if let renamed = body["renamedFrom"] { property.renamedFrom = try scalarString(renamed, "renamedFrom") }
        if let defaultNode = body["default"] {
            property.defaultValue = try defaultValue(defaultNode, for: property.type, path)
        }
        return property
    }

    private mutating func typeExpression(_ node: Node, _ path: String) throws(KuraError) -> PropertyType {
        let text = try scalarString(node, "a type")
        guard let type = PropertyType.parse(text) else {
            if let name = PropertyType.namePart(of: text), let problem = Identifier.problem(with: name),
                problem != Identifier.grammar
            {
                throw error(.invalidType, "\(path): '\(text)' is not a type: \(problem)", node)
            }
            throw error(
                .invalidType,
                "\(path): '\(text)' is not a type (expected a scalar such as int or string?, a type name, or list<…>, set<…>, map<…>)",
                node)
        }
        // The name is the last one in the text: only `?`, `>` and spaces follow it.
        if let name = type.objectTypeName, let range = text.range(of: name, options: .backwards) {
            let offset = text.unicodeScalars.distance(from: text.startIndex, to: range.lowerBound)
            locations.typeNames[path] = location(of: name, at: offset, in: node)
        }
        return type
    }

    private func defaultValue(_ node: Node, for type: PropertyType, _ path: String) throws(KuraError) -> DefaultValue {
        guard let scalar = node.scalar else {
            throw error(.invalidDefault, "\(path): a default must be a single value", node)
        }
        let text = scalar.string
        let tag = tagName(node)
        if tag == .null { return .value(.null) }
        let value: Value?
        switch type.nonOptional {
        case .date where text == "now": return .now
        case .uuid where text == "uuid": return .uuid
        case .bool: value = node.bool.map(Value.bool)
        case .int: value = tag == .int ? Int64(text).map(Value.int) : nil
        case .float: value = tag == .int || tag == .float ? node.float.map { .float(Float($0)) } : nil
        case .double: value = tag == .int || tag == .float ? node.float.map(Value.double) : nil
        case .string: value = tag == .str ? .string(text) : nil
        case .date: value = (try? DateFormatting.checkedISO8601(text).get()).map { .date(DateFormatting.date(milliseconds: $0)) }
        case .data: value = tag == .binary ? node.binary.map(Value.data) : nil
        case .decimal: value = Decimal128(text).map(Value.decimal)
        case .objectId: value = ObjectId(hex: text).map(Value.objectId)
        case .uuid: value = UUID(uuidString: text).map(Value.uuid)
        case .mixed: value = mixedScalar(node)
        default:
            throw error(.invalidDefault, "\(path): a property of type \(type) cannot have a default", node)
        }
        guard let value else {
            throw error(.invalidDefault, "\(path): default '\(text)' is not a valid \(type)", node)
        }
        return .value(value)
    }

    private func mixedScalar(_ node: Node) -> Value? {
        switch tagName(node) {
        case .bool: node.bool.map(Value.bool)
        case .int: Int64(node.string ?? "").map(Value.int)
        case .float: node.float.map(Value.double)
        case .str: node.string.map(Value.string)
        default: nil
        }
    }

    // MARK: Node helpers

    private func tagName(_ node: Node) -> Tag.Name { Tag.Name(rawValue: node.tag.rawValue) }

    private func mapping(_ node: Node, _ what: String) throws(KuraError) -> Node.Mapping {
        guard let mapping = node.mapping else {
            throw error(.invalidStructure, "\(what) must be a mapping", node)
        }
        return mapping
    }

    private func checkKeys(_ mapping: Node.Mapping, allowed: [String], in what: String) throws(KuraError) {
        for key in mapping.keys {
            let name = key.string ?? ""
            if !allowed.contains(name) {
                throw error(
                    .invalidStructure,
                    "unknown key '\(name)' in \(what) (expected \(allowed.map { "'\($0)'" }.joined(separator: ", ")))", key)
            }
        }
    }

    private func scalarString(_ node: Node, _ what: String) throws(KuraError) -> String {
        guard let scalar = node.scalar, tagName(node) != .null else {
            throw error(.invalidStructure, "\(what) must be a single value", node)
        }
        return scalar.string
    }

    private func flag(_ node: Node?, _ what: String) throws(KuraError) -> Bool {
        guard let node else { return false }
        guard tagName(node) == .bool, let value = node.bool else {
            throw error(.invalidStructure, "\(what) must be true or false", node)
        }
        return value
    }

    private func location(_ node: Node) -> FilePosition? {
        node.mark.map { FilePosition(file: file, line: $0.line, column: $0.column) }
    }

    /// Where `name`, `offset` characters into the text of scalar `node`, stands in the file (libyaml
    /// counts columns in characters); where the node starts if the text is not written as read
    /// (escapes, a block scalar).
    private func location(of name: String, at offset: Int, in node: Node) -> FilePosition? {
        guard let mark = node.mark else { return nil }
        let style = node.scalar?.style
        let column = mark.column + offset + (style == .singleQuoted || style == .doubleQuoted ? 1 : 0)
        if mark.line >= 1, mark.line <= lines.count {
            let written = lines[mark.line - 1].unicodeScalars.dropFirst(column - 1).prefix(name.unicodeScalars.count)
            if written.elementsEqual(name.unicodeScalars) { return FilePosition(file: file, line: mark.line, column: column) }
        }
        return location(node)
    }

    private func error(_ code: KuraError.SchemaCode, _ message: String, _ node: Node) -> KuraError {
        KuraError.schema(code, message, at: location(node))
    }

    private func syntaxError(_ error: any Error) -> KuraError {
        guard let yamlError = error as? YamlError else {
            return KuraError.schema(.syntax, "cannot parse YAML: \(error)", at: nil, underlying: error)
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            return KuraError.schema(
                .syntax, "invalid YAML: \(detail)", at: FilePosition(file: file, line: mark.line, column: mark.column),
                underlying: error)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return KuraError.schema(
                .duplicateName, "duplicate key \(keys) in a mapping",
                at: FilePosition(file: file, line: context.mark.line, column: context.mark.column), underlying: error)
        default:
            return KuraError.schema(.syntax, "invalid YAML: \(yamlError)", at: nil, underlying: error)
        }
    }
}
