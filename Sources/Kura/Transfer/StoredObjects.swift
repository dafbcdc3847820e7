/// The objects of an export or copy stream, for its sink to take either as stored rows (an export
/// writes them as text directly, `DocumentWalker.writeStoredDocument`) or as assembled document
/// values (a copy creates objects from them).
final class StoredObjects {
    let blocks: ObjectBlocks
    /// How links are written and which objects carry an `"$id"`, shared by both forms.
    let references: DocumentReferences
    private let onLoad: (ObjectRef) -> Void
    private var assembler: DocumentAssembler
    /// The plan types whose fields were checked against the stored properties.
    private var checkedLayouts: Set<ObjectIdentifier> = []

    /// Makes the objects read through `blocks`; `onLoad` hears of each object as it is loaded.
    init(schema: Schema, blocks: ObjectBlocks, references: DocumentReferences, onLoad: @escaping (ObjectRef) -> Void) {
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

    /// Every stored property of the object, in the order of `type.fields`.
    func fields(of ref: ObjectRef, as type: TypePlan) throws -> [Value] {
        onLoad(ref)
        let fields = try blocks.fields(of: ref)
        if !checkedLayouts.contains(ObjectIdentifier(type)) {
            let stored = try blocks.storedPropertyNames(of: ref.type)
            guard stored == type.fields.map(\.name) else {
                throw StoreError(.schemaMismatch, "the writer's schema lays out \(ref.type) unlike the realm's: write with the realm's schema")
            }
            checkedLayouts.insert(ObjectIdentifier(type))
        }
        return fields
    }
}
