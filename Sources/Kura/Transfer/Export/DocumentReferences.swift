/// Decides how each link of an exported document is written, and names the objects that
/// need an `"$id"`: a link to an object with a primary key is the key's value; an object without
/// one is nested where it is linked, and one reached more than once (shared, or in a cycle) carries
/// `"$id"` where it is first written and is `{"$ref": id}` everywhere after. Embedded objects are
/// always nested.
///
/// One instance serves one export or encoding, so names count through every document of it; the
/// document assembler (values) and the stored-document walk (rows to text) share these rules.
final class DocumentReferences {
    /// How deep objects without a primary key are nested before the rest of a chain is written as
    /// documents of their own; well below the mapper's limit, which also counts collections.
    static let maxNesting = 64

    /// How one link is written.
    enum LinkForm {
        /// The linked object's document, nested in place.
        case nested
        /// The linked object's primary key value.
        case key(Value)
        /// `{"$ref": id}`, to an object named elsewhere in the output.
        case reference(Value)
    }

    /// An object's primary key value (`nil` or `.null` when it has none).
    let primaryKey: (ObjectRef) throws -> Value?
    /// Whether an object is reached more than once in what is written, so it needs an `"$id"`.
    let isShared: (ObjectRef) throws -> Bool
    /// Whether an object without a primary key is written as a document of its own (a root of a
    /// streamed export), so links to it are references and never nest it.
    var isRoot: (ObjectRef) -> Bool = { _ in false }

    /// The `"$id"` given to each shared or deferred object so far.
    private var ids: [ObjectRef: Value] = [:]
    /// The objects written so far that other places refer to by `"$id"`.
    private var written: Set<ObjectRef> = []
    /// Objects too deep to nest, to be written as documents of their own after the current one.
    private var deferred: [ObjectRef] = []

    init(primaryKey: @escaping (ObjectRef) throws -> Value?, isShared: @escaping (ObjectRef) throws -> Bool) {
        self.primaryKey = primaryKey
        self.isShared = isShared
    }

    /// Whether a shared object has been written already (nested in an earlier document, say).
    func isWritten(_ ref: ObjectRef) -> Bool { written.contains(ref) }

    /// Names a shared object that will be written as a document of its own, so that links met
    /// before or inside it become `{"$ref": id}` instead of nesting it.
    func nameInAdvance(_ ref: ObjectRef, hasKeyProperty: Bool) throws {
        if ids[ref] == nil, try !hasKey(ref, hasKeyProperty), try isShared(ref) { _ = name(ref) }
    }

    /// Takes the objects deferred so far, in the order they were met.
    func takeDeferred() -> [ObjectRef] {
        defer { deferred.removeAll() }
        return deferred
    }

    /// The `"$id"` of an object about to be written, or `nil` when it needs none. An object given
    /// one counts as written from here on, so a cycle back to it becomes a reference.
    func identity(of ref: ObjectRef, isEmbedded: Bool, hasKeyProperty: Bool) throws -> Value? {
        guard !isEmbedded else { return nil }
        if !ids.isEmpty, let id = ids[ref] {
            written.insert(ref)
            return id
        }
        guard try !hasKey(ref, hasKeyProperty), try isShared(ref) else { return nil }
        written.insert(ref)
        return name(ref)
    }

    /// How a link to `ref` is written at nesting `depth` (objects without a key nested so far).
    func form(ofLinkTo ref: ObjectRef, isEmbedded: Bool, hasKeyProperty: Bool, depth: Int) throws -> LinkForm {
        if isEmbedded { return .nested }
        if hasKeyProperty, let key = try primaryKey(ref), !key.isNull { return .key(key) }  // needs no $id
        if !ids.isEmpty, let id = ids[ref] { return .reference(id) }
        // A root written later in the stream: named now, it will carry the name as its "$id".
        if isRoot(ref) { return .reference(name(ref)) }
        guard depth < Self.maxNesting else {
            // Too deep to nest: written on its own later; the reference reaches forward to it.
            deferred.append(ref)
            return .reference(name(ref))
        }
        return .nested
    }

    /// Whether the object has a primary key value, which links use instead of `"$id"`.
    private func hasKey(_ ref: ObjectRef, _ hasKeyProperty: Bool) throws -> Bool {
        // Asked before `isShared`, which costs a query for any type; this one only for keyed types.
        guard hasKeyProperty, let key = try primaryKey(ref) else { return false }
        return !key.isNull
    }

    /// A new `"$id"` for `ref`: its type and a number counting in the order objects are met, so an
    /// export of a re-imported realm names them the same.
    private func name(_ ref: ObjectRef) -> Value {
        let id = Value.string("\(ref.type)-\(ids.count + 1)")
        ids[ref] = id
        return id
    }
}
