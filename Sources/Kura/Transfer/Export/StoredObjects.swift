/// The objects of an export or copy stream, for its sink to take either as stored rows (an export
/// writes them as text directly, `DocumentWalker.writeStoredDocument`) or as assembled document
/// values (a copy creates objects from them).
final class StoredObjects {
    let blocks: any ObjectBlockReading
    /// How links are written and which objects carry an `"$id"`, shared by both forms.
    let references: DocumentReferences
    private let onLoad: (ObjectRef) -> Void
    private var assembler: DocumentAssembler

    /// Makes the objects read through `blocks`; `onLoad` hears of each object as it is loaded.
    init(schema: Schema, blocks: any ObjectBlockReading, references: DocumentReferences, onLoad: @escaping (ObjectRef) -> Void) {
        self.blocks = blocks
        self.references = references
        self.onLoad = onLoad
        assembler = DocumentAssembler(
            schema: schema,
            load: { ref in
                onLoad(ref)
                return try blocks.values(of: ref)
            },
            references: references)
    }

    /// The object's document as a value, links converted as `references` decides.
    func document(_ ref: ObjectRef) throws -> Value {
        try assembler.document(ref)
    }

    /// Every stored property of the object, in the order of its type's `storedProperties` (which
    /// the export checked, once, is the order of the writer's fields).
    func fields(of ref: ObjectRef) throws -> [Value] {
        onLoad(ref)
        return try blocks.fields(of: ref)
    }
}

/// An export writes its documents straight from the stored rows.
extension StoredObjects: StoredDocumentSource {
    func writeDocument<Emitter>(_ ref: ObjectRef, _ type: TypePlan, tagged: Bool, on walker: inout DocumentWalker<Emitter>) throws {
        try walker.writeStoredDocument(ref, type, tagged: tagged, from: self)
    }

    func primaryKey(of ref: ObjectRef) throws -> Value? {
        try blocks.primaryKey(of: ref)
    }
}
