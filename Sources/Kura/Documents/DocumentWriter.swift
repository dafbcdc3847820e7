/// Writes object values as JSON, JSON Lines or YAML documents that the `DocumentMapper` maps back
/// to the same values: for a value `v` the mapper produced, `map(parse(write(v))) == v`, and
/// writing what was read back gives the same bytes.
///
/// The schema directs the writing. Properties come in schema order with `$id` first; map entries
/// are sorted by key. A link is written as the mapper reads it: a `.map` as a nested document,
/// `["$ref": id]` as a reference, a scalar as the target's primary key. Typed values use the
/// wrappers of docs/documents.md (`{"$date": …}`, `{"$binary": …}`, `{"$numberDecimal": …}`, `{"$oid": …}`,
/// `{"$uuid": …}` in mixed values, `{"$numberDouble": "Infinity"}`); YAML uses timestamps,
/// `!!binary`, anchors and aliases where they read back the same (see `YAMLTextWriter`).
///
/// Values the mapper never produces are refused with `.unwritableValue` rather than written as
/// text that reads back differently: a stored-object reference (`.object`), NaN, a value that does
/// not fit its property's type, a key that is not a stored property, a map key starting with `$`
/// or containing `.`, and in YAML a string starting with U+FEFF (which the YAML reader drops);
/// values nested deeper than the mapper reads are refused with `.depthLimit`. A `.float` in a
/// mixed value is written as a double and reads back as one. A document that fails is not written
/// at all, and the writer can go on with the next one.
///
/// Output: `json` is `[`, one compact document per line separated by `,`, and `]` (pretty: two-space
/// indentation, one member per line); `jsonl` is one compact document per line (`pretty` is
/// ignored); `yaml` is one block-style document after each `---` line (`pretty` is ignored).
///
/// Not thread-safe; use one writer from one task at a time.
public final class DocumentWriter {
    /// The output's format.
    public let format: DocumentFormat
    private let output: DocumentOutput
    private let plan: WritePlan
    private var json: DocumentWalker<JSONTextWriter>
    private var yaml: DocumentWalker<YAMLTextWriter>
    private var documentCount = 0
    private var isFinished = false

    /// The reserved member that gives a nested object's address (see `nestedObjectURL`); the
    /// mapper ignores it, so a document carrying it imports as one without it.
    public static let urlKey = "$url"

    /// When set, each object without a primary key that an export nests in another (embedded
    /// objects aside) carries a `"$url"` member, after its `"$id"`, with the text this gives it (none
    /// for `nil`): how a server tells a client where such an object can be read on its own. Export
    /// leaves it unset, so its bytes stay the same.
    public var nestedObjectURL: ((ObjectRef) -> String?)? {
        didSet {
            json.nestedObjectURL = nestedObjectURL
            yaml.nestedObjectURL = nestedObjectURL
        }
    }

    /// Called with the object of each top-level document written from a realm (an export's) and
    /// its primary key value (`nil` for a type without one), in the order written, once the
    /// document is written.
    public var onStoredDocument: ((_ object: ObjectRef, _ primaryKey: Value?) -> Void)?

    /// Makes a writer of `format` documents of `schema`'s types into `output`.
    public init(schema: Schema, format: DocumentFormat, pretty: Bool = false, output: DocumentOutput) {
        self.format = format
        self.output = output
        plan = WritePlan(schema: schema)
        json = DocumentWalker(emitter: JSONTextWriter(layout: format == .jsonl ? .lines : .array, pretty: pretty), plan: plan)
        yaml = DocumentWalker(emitter: YAMLTextWriter(), plan: plan)
    }

    /// How many bytes have been written (flushed or buffered).
    public var bytesWritten: Int { output.byteCount }

    /// How many documents have been written.
    public var documentsWritten: Int { documentCount }

    /// Writes one top-level document: the properties of an object of `typeName`, as the mapper
    /// produces them, led by `"$type": typeName` when `tagged` (a whole-realm export's documents).
    public func write(_ value: Value, as typeName: String, tagged: Bool = false) throws(KuraError) {
        guard !isFinished, !output.isClosed else {
            throw KuraError.document(.outputClosed, "cannot write a document after the writer is finished", file: output.name)
        }
        guard let type = plan[typeName] else {
            let suggestion = TypeSuggestion(for: typeName, among: plan.types.map(\.name))
            throw KuraError.document(.unwritableValue, "$[\(documentCount)]: \(suggestion.message(in: "the schema"))", file: output.name)
        }
        switch format {
        case .json, .jsonl: try write(with: &json) { (walker) throws(WriteFailure) in try walker.writeDocument(value, type, tagged: tagged) }
        case .yaml: try write(with: &yaml) { (walker) throws(WriteFailure) in try walker.writeDocument(value, type, tagged: tagged) }
        }
        documentCount += 1
    }

    /// Writes the realm document a whole-realm export starts with when autoIncrement counters stand
    /// above the keys present: `{"$realm": {"autoIncrement": {type: highest key ever used}}}`.
    func writeRealmDocument(autoIncrement: [(type: String, last: Int64)]) throws(KuraError) {
        guard !isFinished, !output.isClosed else {
            throw KuraError.document(.outputClosed, "cannot write a document after the writer is finished", file: output.name)
        }
        switch format {
        case .json, .jsonl: try write(with: &json) { (walker) throws(WriteFailure) in try walker.writeRealmDocument(autoIncrement: autoIncrement) }
        case .yaml: try write(with: &yaml) { (walker) throws(WriteFailure) in try walker.writeRealmDocument(autoIncrement: autoIncrement) }
        }
        documentCount += 1
    }

    /// Closes the array (JSON) and flushes.
    ///
    /// This also closes the output (a file is closed; standard output is only flushed). Calling
    /// it again does nothing.
    public func finish() throws(KuraError) {
        guard !isFinished else { return }
        isFinished = true
        switch format {
        case .json, .jsonl: appendStreamEnd(with: &json)
        case .yaml: appendStreamEnd(with: &yaml)
        }
        try output.close()
    }

    /// Writes one document into the output's buffer; on failure, removes what it wrote.
    private func write<Emitter>(
        with walker: inout DocumentWalker<Emitter>, _ body: (inout DocumentWalker<Emitter>) throws(WriteFailure) -> Void
    ) throws(KuraError) {
        if let failure = perform(with: &walker, body) {
            throw (failure as? KuraError).flatMap { $0.code.domain == .document ? $0 : nil } ?? KuraError.document(.unwritableValue, "\(failure)", file: output.name)
        }
        try output.flushIfFull()
    }

    /// Runs `body` on the walker with the output's buffer lent to it; on failure, removes what it
    /// wrote and returns the error (a walker's failure as a `KuraError` with its path).
    private func perform<Emitter>(
        with walker: inout DocumentWalker<Emitter>, _ body: (inout DocumentWalker<Emitter>) throws -> Void
    ) -> (any Error)? {
        output.exchangeBuffer(&walker.emitter.out)
        let start = walker.emitter.out.count
        var failure: (any Error)?
        do {
            try body(&walker)
        } catch {
            failure = error
            walker.emitter.abandonDocument()
            walker.emitter.out.removeSubrange(start...)
        }
        output.exchangeBuffer(&walker.emitter.out)
        if let failure = failure as? WriteFailure {
            let path = failure.path(from: "$[\(documentCount)]")
            return KuraError.document(failure.code, "\(path): \(failure.message)", file: output.name)
        }
        return failure
    }

    /// The names of the properties a document of `typeName` is written with, in order; `nil` when
    /// the writer's schema has no such type.
    func propertyNames(of typeName: String) -> [String]? {
        plan[typeName]?.fields.map(\.name)
    }

    /// Writes the stored object `ref` as one top-level document straight from its rows (an
    /// export's path), led by `"$type"` when `tagged`; errors reading the realm pass through.
    func writeStored(_ ref: ObjectRef, tagged: Bool, from objects: some StoredDocumentSource) throws {
        guard !isFinished, !output.isClosed else {
            throw KuraError.document(.outputClosed, "cannot write a document after the writer is finished", file: output.name)
        }
        guard let type = plan[ref.type] else {
            let suggestion = TypeSuggestion(for: ref.type, among: plan.types.map(\.name))
            throw KuraError.document(.unwritableValue, "$[\(documentCount)]: \(suggestion.message(in: "the schema"))", file: output.name)
        }
        let failure: (any Error)?
        switch format {
        case .json, .jsonl: failure = perform(with: &json) { walker in try objects.writeDocument(ref, type, tagged: tagged, on: &walker) }
        case .yaml: failure = perform(with: &yaml) { walker in try objects.writeDocument(ref, type, tagged: tagged, on: &walker) }
        }
        if let failure { throw failure }
        try output.flushIfFull()
        documentCount += 1
        if let onStoredDocument { onStoredDocument(ref, type.primaryKey == nil ? nil : try objects.primaryKey(of: ref)) }
    }

    private func appendStreamEnd<Emitter>(with walker: inout DocumentWalker<Emitter>) {
        output.exchangeBuffer(&walker.emitter.out)
        walker.emitter.finish()
        output.exchangeBuffer(&walker.emitter.out)
    }
}
