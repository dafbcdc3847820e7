import Yams

/// A schema's YAML text (as `kura schema` prints it) as JSON with the same structure and order.
enum SchemaJSON {
    /// Schemas are a few levels deep; anything deeper is refused rather than followed.
    private static let maxDepth = 32

    /// The JSON text of the YAML document `yaml`.
    static func json(fromYAML yaml: String) throws -> String {
        guard let node = try Yams.compose(yaml: yaml) else { return "{}" }
        return try json(of: node, depth: 0)
    }

    private static func json(of node: Node, depth: Int) throws -> String {
        guard depth < maxDepth else { throw Problem(status: 500, code: "internal", detail: "the schema nests too deeply") }
        switch node {
        case .mapping(let mapping):
            return JSONText.object(try mapping.map { key, value in (key.string ?? "", try json(of: value, depth: depth + 1)) })
        case .sequence(let sequence):
            return JSONText.array(try sequence.map { try json(of: $0, depth: depth + 1) })
        case .scalar(let scalar):
            return scalarJSON(node, text: scalar.string)
        case .alias:
            return "null"
        }
    }

    private static func scalarJSON(_ node: Node, text: String) -> String {
        let tag = node.tag
        if tag == Tag(.null) { return "null" }
        if tag == Tag(.bool), let value = node.bool { return value ? "true" : "false" }
        if tag == Tag(.int), let value = node.int { return String(value) }
        if tag == Tag(.float), let value = node.float, value.isFinite { return String(value) }
        return JSONText.string(text)
    }
}
