/// Where a document writer takes documents written straight from stored objects (an export's
/// path, with no document value in between): it writes one object's document with a walker the
/// writer hands it, and tells the object's primary key for `DocumentWriter.onStoredDocument`.
protocol StoredDocumentSource {
    /// Writes the stored object `ref` of `type` as one top-level document on `walker`, led by
    /// `"$type"` when `tagged`.
    func writeDocument<Emitter>(_ ref: ObjectRef, _ type: TypePlan, tagged: Bool, on walker: inout DocumentWalker<Emitter>) throws
    /// The primary key of the stored object `ref`.
    func primaryKey(of ref: ObjectRef) throws -> Value?
}
