import Foundation

/// Encodes Codable model values as JSON or YAML documents that `DocumentDecoder` and `kura import`
/// read back: typed wrappers for dates, data, decimals and object ids; links to objects with a
/// primary key as the key; other linked objects nested, with `"$id"`/`{"$ref": id}` (anchors and
/// aliases in YAML) where one instance is reached twice or in a cycle.
public struct DocumentEncoder {
    /// The schema derived from the models.
    public let schema: Schema
    /// The document format written.
    public var format: DocumentFormat
    /// Whether JSON is indented, one member per line.
    public var pretty: Bool

    /// Makes an encoder for `models` (every model type they link to must be listed).
    public init(models: [any KuraObject.Type], format: DocumentFormat = .json, pretty: Bool = false) throws {
        self.schema = try Schema(models: models)
        self.format = format
        self.pretty = pretty
    }

    /// The documents of `models`, one per model, in order.
    public func encode<T: KuraObject>(_ models: [T]) throws -> Data {
        let output = DocumentOutput()
        try write(models, to: output)
        return Data(output.bytes)
    }

    /// Writes the documents of `models` to `output` and finishes it.
    public func write<T: KuraObject>(_ models: [T], to output: DocumentOutput) throws {
        let graph = try ModelGraph(models)
        let references = DocumentReferences(
            primaryKey: { [schema] ref in
                guard let key = schema[type: ref.type]?.primaryKey else { return nil }
                return graph.objects[ref]?[key]
            },
            isShared: graph.isShared)
        var assembler = DocumentAssembler(
            schema: schema,
            load: { [schema] ref in
                // A model may encode more than the schema stores; the assembler takes stored properties only.
                let fields = graph.objects[ref] ?? [:]
                guard let type = schema[type: ref.type] else { return fields }
                return fields.filter { type[property: $0.key].map { !$0.isComputed } ?? false }
            },
            references: references)
        // Every model given is a document of its own, so links to one of them refer to it.
        for root in graph.roots {
            try references.nameInAdvance(root, hasKeyProperty: schema[type: root.type]?.primaryKey != nil)
        }
        let writer = DocumentWriter(schema: schema, format: format, pretty: pretty, output: output)
        for root in graph.roots {
            try writer.write(try assembler.document(root), as: T.typeName)
            if let deep = references.takeDeferred().first {
                throw KuraError.store(
                    .nestingTooDeep,
                    "\(deep.type) objects without a primary key nest deeper than \(DocumentReferences.maxNesting) levels")
            }
        }
        try writer.finish()
    }
}
