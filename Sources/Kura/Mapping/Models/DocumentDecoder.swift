import Foundation

/// Decodes Codable model values straight from JSON or YAML documents, with the strict rules of
/// docs/documents.md and no realm: objects linked by `"$id"`/`{"$ref": id}`, YAML anchors or primary key
/// come back as one shared instance, so cycles through `@Link` properties keep their shape.
public struct DocumentDecoder {
    /// The schema derived from the models, which documents are checked against.
    public let schema: Schema
    /// Date and data strategies, unknown-key policy and error limit.
    public var options: MappingOptions

    /// Makes a decoder for documents of `models` (every model type they link to must be listed).
    public init(models: [any KuraObject.Type], options: MappingOptions = MappingOptions()) throws {
        self.schema = try Schema(models: models)
        self.options = options
    }

    /// Decodes the documents of `reader` as `T`s, in input order.
    ///
    /// A document naming another type with `"$type"` (as a whole-realm export, or one that follows
    /// links, writes them) is decoded as that type, for the objects of `T` to link to, and is not
    /// returned; its type must be one of the models.
    public func decode<T: KuraObject>(_ type: T.Type, from reader: some DocumentReader) throws -> [T] {
        guard let objectType = schema[type: T.typeName] else {
            throw KuraError.store(.unknownType, "\(T.typeName) is not one of the decoder's models")
        }
        let mapper = DocumentMapper(schema: schema, options: options, file: reader.file)
        let graph = DocumentGraph(schema: schema, file: reader.file)
        var roots: [ObjectRef] = []
        var index = 0
        // The items of a YAML top-level sequence may alias anchors of the items before them.
        let yaml = reader as? YAMLReader
        let anchors = yaml.map { _ in SharedAnchors() }
        while let node = try reader.next() {
            if let anchors, yaml?.continuesSequence != true { anchors.reset() }
            if RealmDocument.isRealmDocument(node) { continue }  // a whole-realm export's counters: no model
            let path = "$[\(index)]"
            index += 1
            let named = DocumentMapper.declaredType(of: node).flatMap { schema[type: $0] } ?? objectType
            let mapped = try mapper.map(node, as: named.name, path: path, anchors: anchors)
            let ref = try graph.add(mapped.value, as: named, path: path, position: node.position)
            if named.name == objectType.name { roots.append(ref) }
        }
        try graph.finish()
        let backlinks = GraphBacklinks(objects: graph.objects)
        let session = DecodingSession(
            schema: schema, load: { ref in .map(graph.objects[ref] ?? [:]) },
            linkingObjects: { ref, property in backlinks.linkingObjects(of: ref, property) })
        let models = try roots.map { try session.object(type, at: $0, codingPath: [], depth: 0) }
        try session.fillLinks()
        return models
    }

    /// Decodes JSON: one document, an array of documents, or JSON Lines.
    public func decode<T: KuraObject>(_ type: T.Type, json: Data, file: String = "<input>") throws -> [T] {
        try decode(type, from: JSONReader(data: json, file: file, layout: .auto))
    }

    /// Decodes a YAML stream of one or more documents.
    public func decode<T: KuraObject>(_ type: T.Type, yaml: String, file: String = "<input>") throws -> [T] {
        try decode(type, from: YAMLReader(text: yaml, file: file))
    }
}
