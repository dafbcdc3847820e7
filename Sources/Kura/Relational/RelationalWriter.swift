/// The object writer's side of an engine whose realms are laid out in tables (`TableLayout`):
/// beside the identifiers, counters and savepoints of `StorageWriter`, the rows it stages and
/// inserts, finds by key, reads back and changes one at a time.
///
/// Rows are staged in `stage` and inserted by their `WriteStatements` slot; an engine that holds
/// inserts back (`holdInserts`) writes them before anything that could see them runs.
protocol RelationalWriter: StorageWriter {
    /// The compiled schema the transaction writes by.
    var catalog: SchemaCatalog { get }
    /// Where the writer builds the rows it inserts.
    var stage: RowStage { get }

    /// From now on inserts are held and written in batches. Only for a writer that reaches the
    /// realm through this transaction alone, as an import does.
    func holdInserts() throws
    /// Whether inserts are held (`holdInserts()`).
    var holdsInserts: Bool { get }
    /// Inserts the rows staged in `range`, row after row, with `slot`, or holds them for
    /// `bulkInsert` when inserts are held.
    func insert(_ slot: WriteStatements.Slot, bulk bulkInsert: WriteStatements.BulkInsert?, cells range: Range<Int>) throws
    /// Notes the primary key of an object just inserted, which a held insert keeps out of the
    /// realm until its batch is written.
    func noteInsertedKey(_ key: StoredCell, of type: StoredType, id: Int64)
    /// The id of the `type` object whose primary key is stored as `key`, held inserts included.
    func objectId(_ type: StoredType, key: StoredCell) throws -> Int64?

    /// Whether the object is stored.
    func objectExists(_ ref: ObjectRef) throws -> Bool
    /// Throws `objectDeleted` unless the object is stored (`unknownType` for a type the schema lacks).
    func requireExists(_ ref: ObjectRef) throws
    /// The stored cell of a property held in the object's own row, with its mixed tag (0 for other kinds).
    func storedColumn(of ref: ObjectRef, _ property: Property) throws -> (tag: Int64, value: StoredCell)
    /// Writes one column of the object's row (and a mixed property's tag beside it).
    func setColumn(_ ref: ObjectRef, _ property: Property, _ value: StoredCell, tag: Int64?) throws
    /// The value of one collection property of the object.
    func collection(of ref: ObjectRef, _ property: Property) throws -> Value
    /// The stored elements of one collection property of `ref` in their order: each one's map key
    /// (maps only) and stored cell.
    func collectionElements(of ref: ObjectRef, _ property: Property, isMap: Bool) throws -> [(key: String?, value: StoredCell)]
    /// The stored value of a mixed column or element, its nested containers read.
    func mixedValue(tag: Int64, value: StoredCell) throws -> Value
    /// Inserts one entry of a nested mixed list (at `position`) or map (under `key`).
    func insertMixedEntry(_ container: Int64, position: Int64?, key: String?, tag: Int64, value: StoredCell) throws
    /// Deletes the nested container a mixed value holds, if it holds one, with those nested in it.
    func deleteMixedContainer(tag: Int64, value: StoredCell) throws
    /// Calls `body` with the id and the stored `columns` (by their index there) of every `type`
    /// object whose id is at most `floor`, one row at a time.
    func forEachRow(
        of type: StoredType, columns: [StoredProperty], idAtMost floor: Int64, _ body: (Int64, (Int) -> StoredCell) throws -> Void
    ) throws

    /// What reads inside the transaction see, laid out by `catalog`: every held insert written first.
    func snapshot(by catalog: SchemaCatalog) throws -> any RelationalSnapshot
    /// Copies the whole realm from the source `RelationalEngine.withSetBasedSource` made readable,
    /// laid out by `source`, table by table; `nil` when its objects need judging one by one. Calls
    /// `onProgress` with the objects copied and the total.
    func copySetBased(
        from source: SchemaCatalog, findsUnkeyedObjects: Bool, onProgress: ((Int, Int?) -> Void)?
    ) throws -> [String: ChangeCounts]?
}

extension RelationalWriter {
    /// Writes one column of the object's row, one that holds no mixed value.
    func setColumn(_ ref: ObjectRef, _ property: Property, _ value: StoredCell) throws {
        try setColumn(ref, property, value, tag: nil)
    }
}
