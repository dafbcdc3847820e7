import Foundation

/// Emits documents as a YAML stream: each document starts with `---`, collections in block style
/// with two-space indentation (`[]` and `{}` when empty), dates as plain timestamps, data as
/// `!!binary`, other typed values as flow wrappers (`{$oid: "…"}`), strings plain when
/// `YAMLScalarResolver` reads them back as the same string and double-quoted otherwise.
///
/// A link document whose `$id` is a valid anchor name is written with that anchor instead of a
/// `$id` key, and a later reference to it in the same document as an alias. Anchors are
/// document-scoped and Yams registers one only when its node is complete, so references to
/// other documents, to enclosing documents (cycles) and forward references stay `$ref: …` maps.
struct YAMLTextWriter: DocumentEmitter {
    private struct Frame {
        let isSequence: Bool
        /// The column of the collection's keys or `-` markers.
        let indent: Int
    }

    /// libyaml refuses implicit keys longer than 1024 characters; longer keys are written in the
    /// explicit `? key` form. Counted in bytes, which are never fewer than characters.
    private static let maxImplicitKeyLength = 1000

    var out: [UInt8] = []
    private var frames: [Frame] = []
    /// Whether the cursor stands just after `- `, where a new collection's first entry goes.
    private var inline = false
    /// The anchors of completed nodes in the current document, which aliases may refer to.
    private var anchors: Set<String> = []

    // MARK: Documents

    mutating func beginDocument() {
        abandonDocument()
        anchors.removeAll(keepingCapacity: true)
        ValueText.append("---", to: &out)
    }

    mutating func endDocument() {}

    mutating func abandonDocument() {
        frames.removeAll(keepingCapacity: true)
        inline = false
    }

    mutating func finish() {}

    // MARK: Containers

    mutating func beginObject(count: Int, anchor: String?) {
        guard !frames.isEmpty else {
            // A top-level document, after its `---`.
            ValueText.append(count == 0 ? " {}\n" : "\n", to: &out)
            frames.append(Frame(isSequence: false, indent: 0))
            return
        }
        beginCollection(isSequence: false, count: count, anchor: anchor)
    }

    mutating func key(_ key: String) throws(WriteFailure) {
        try Self.checkCarried(key)
        startLine()
        let start = out.count
        appendText(key)
        if out.count - start > Self.maxImplicitKeyLength {
            out.insert(contentsOf: [UInt8(ascii: "?"), UInt8(ascii: " ")], at: start)
            out.append(UInt8(ascii: "\n"))
            ValueText.appendSpaces(frames.last?.indent ?? 0, to: &out)
        }
        out.append(UInt8(ascii: ":"))
    }

    mutating func propertyKey(_ property: FieldPlan) throws(WriteFailure) {
        guard let name = property.yamlName else { return try key(property.name) }
        startLine()
        out.append(contentsOf: name)
        out.append(UInt8(ascii: ":"))
    }

    /// A key's text when it is short enough for an implicit key and a carried string, else nil.
    static func keyText(_ key: String) -> [UInt8]? {
        guard isCarried(key) else { return nil }
        var writer = YAMLTextWriter()
        writer.appendText(key)
        return writer.out.count <= maxImplicitKeyLength ? writer.out : nil
    }

    mutating func endObject(anchor: String?) {
        frames.removeLast()
        if let anchor { anchors.insert(anchor) }
    }

    mutating func beginArray(count: Int) {
        beginCollection(isSequence: true, count: count, anchor: nil)
    }

    mutating func endArray() {
        frames.removeLast()
    }

    /// Starts a nested collection after `key:` or as a sequence entry; an empty one is written
    /// whole in flow style, but still gets a frame for its end to remove.
    private mutating func beginCollection(isSequence: Bool, count: Int, anchor: String?) {
        let parentIndent = frames.last?.indent ?? 0
        let inSequence = frames.last?.isSequence ?? false
        if inSequence {
            startLine()
            ValueText.append("- ", to: &out)
        }
        frames.append(Frame(isSequence: isSequence, indent: parentIndent + 2))
        if count == 0 {
            if !inSequence { out.append(UInt8(ascii: " ")) }
            if let anchor { appendAnchor(anchor, then: " ") }
            ValueText.append(isSequence ? "[]\n" : "{}\n", to: &out)
        } else if let anchor {
            if !inSequence { out.append(UInt8(ascii: " ")) }
            appendAnchor(anchor, then: "\n")
        } else if inSequence {
            // Compact form: the first entry follows the `- ` on the same line.
            inline = true
        } else {
            out.append(UInt8(ascii: "\n"))
        }
    }

    private mutating func appendAnchor(_ name: String, then separator: StaticString) {
        out.append(UInt8(ascii: "&"))
        ValueText.append(name, to: &out)
        ValueText.append(separator, to: &out)
    }

    /// Indents a new line to the current collection's column, unless the cursor is already there.
    private mutating func startLine() {
        if inline {
            inline = false
        } else {
            ValueText.appendSpaces(frames.last?.indent ?? 0, to: &out)
        }
    }

    /// Before a scalar: `- ` in a sequence, a space after a key.
    private mutating func beginScalar() {
        if frames.last?.isSequence ?? false {
            startLine()
            ValueText.append("- ", to: &out)
        } else {
            out.append(UInt8(ascii: " "))
        }
    }

    // MARK: Scalars

    mutating func null() {
        beginScalar()
        ValueText.append("null\n", to: &out)
    }

    mutating func bool(_ value: Bool) {
        beginScalar()
        ValueText.append(value ? "true\n" : "false\n", to: &out)
    }

    mutating func int(_ value: Int64) {
        beginScalar()
        ValueText.appendInteger(value, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    mutating func double(_ value: Double) {
        beginScalar()
        ValueText.appendDouble(value, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    mutating func float(_ value: Float) {
        beginScalar()
        ValueText.appendFloat(value, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// The reader refuses `.inf` (YAML floats must be finite), so infinities use the wrapper.
    mutating func infinity(negative: Bool) {
        beginScalar()
        ValueText.append(negative ? "{$numberDouble: \"-Infinity\"}\n" : "{$numberDouble: \"Infinity\"}\n", to: &out)
    }

    mutating func string(_ value: String) throws(WriteFailure) {
        try Self.checkCarried(value)
        beginScalar()
        appendText(value)
        out.append(UInt8(ascii: "\n"))
    }

    mutating func date(milliseconds: Int64) {
        beginScalar()
        if ValueText.isoDateRange.contains(milliseconds) {
            ValueText.appendISODate(milliseconds: milliseconds, to: &out)
            out.append(UInt8(ascii: "\n"))
        } else {
            // A YAML timestamp needs a four-digit year; the mapper also reads milliseconds as a long.
            ValueText.append("{$date: {$numberLong: \"", to: &out)
            ValueText.appendInteger(milliseconds, to: &out)
            ValueText.append("\"}}\n", to: &out)
        }
    }

    mutating func data(_ value: Data) {
        beginScalar()
        ValueText.append("!!binary \"", to: &out)
        ValueText.appendBase64(value, to: &out)
        ValueText.append("\"\n", to: &out)
    }

    mutating func decimal(_ value: Decimal128) {
        beginScalar()
        ValueText.append("{$numberDecimal: \"", to: &out)
        ValueText.append(value.description, to: &out)
        ValueText.append("\"}\n", to: &out)
    }

    mutating func objectId(_ value: ObjectId) {
        beginScalar()
        ValueText.append("{$oid: \"", to: &out)
        ValueText.appendHex(value.bytes, to: &out)
        ValueText.append("\"}\n", to: &out)
    }

    /// Canonical UUID text is always a safe plain scalar: hexadecimal digits and dashes in the
    /// 8-4-4-4-12 pattern match none of YAML's number, timestamp, bool or null forms.
    mutating func uuid(_ value: UUID, tagged: Bool) {
        beginScalar()
        if tagged { ValueText.append("{$uuid: \"", to: &out) }
        ValueText.appendUUID(value, to: &out)
        ValueText.append(tagged ? "\"}\n" : "\n", to: &out)
    }

    mutating func alias(_ name: String) {
        beginScalar()
        out.append(UInt8(ascii: "*"))
        ValueText.append(name, to: &out)
        out.append(UInt8(ascii: "\n"))
    }

    func anchorName(for id: Value) -> String? {
        guard case .string(let name) = id, Self.isAnchorName(name) else { return nil }
        return name
    }

    func aliasName(for id: Value) -> String? {
        guard case .string(let name) = id, anchors.contains(name) else { return nil }
        return name
    }

    /// Letters, digits, `_` and `-` (ASCII), as libyaml reads anchor names.
    static func isAnchorName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
