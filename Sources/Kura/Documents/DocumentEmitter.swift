import Foundation

/// Turns the events of one document walk into text of one format.
///
/// The walker decides what is written (which keys, in which order, of which type); an emitter
/// decides how it looks. Values reach an emitter already checked: numbers are finite, and map
/// keys are valid.
protocol DocumentEmitter {
    /// The text written so far.
    var out: [UInt8] { get set }

    /// Starts a top-level document (before its `beginObject`).
    mutating func beginDocument()
    /// Ends a top-level document (after its `endObject`).
    mutating func endDocument()
    /// Forgets the state of a document whose writing failed (its bytes are removed by the caller).
    mutating func abandonDocument()
    /// Ends the stream after the last document.
    mutating func finish()

    /// Starts an object of `count` members; `anchor` is a name from `anchorName(for:)`.
    mutating func beginObject(count: Int, anchor: String?)
    /// Writes a member's key; its value follows. Throws for a key the format cannot carry.
    mutating func key(_ key: String) throws(WriteFailure)
    /// Writes a property's name as a key, from the text computed once per schema.
    mutating func propertyKey(_ property: FieldPlan) throws(WriteFailure)
    mutating func endObject(anchor: String?)
    mutating func beginArray(count: Int)
    mutating func endArray()

    mutating func null()
    mutating func bool(_ value: Bool)
    mutating func int(_ value: Int64)
    /// A finite double.
    mutating func double(_ value: Double)
    /// A finite float.
    mutating func float(_ value: Float)
    /// Positive or negative infinity, as a double or a float.
    mutating func infinity(negative: Bool)
    /// Writes a string; throws for one the format cannot carry.
    mutating func string(_ value: String) throws(WriteFailure)
    mutating func date(milliseconds: Int64)
    mutating func data(_ value: Data)
    mutating func decimal(_ value: Decimal128)
    mutating func objectId(_ value: ObjectId)
    /// A UUID; `tagged` when it sits where a plain string would read back as a string (mixed).
    mutating func uuid(_ value: UUID, tagged: Bool)
    /// A reference written as an alias to an earlier anchor (a name from `aliasName(for:)`).
    mutating func alias(_ name: String)

    /// The anchor a nested link document with this `$id` is written with, or nil to write the
    /// `$id` as a key.
    func anchorName(for id: Value) -> String?
    /// The anchor a reference to `id` can be written as an alias of, or nil to write `{"$ref": id}`.
    func aliasName(for id: Value) -> String?
}
