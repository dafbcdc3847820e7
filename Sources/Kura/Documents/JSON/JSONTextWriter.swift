import Foundation

/// Emits documents as JSON: an array of documents (compact, one document per line, or pretty with
/// two-space indentation) or JSON Lines. Typed values use the Extended-JSON wrappers the mapper
/// reads (`{"$date": …}`, `{"$binary": …}`, `{"$numberDecimal": …}`, `{"$oid": …}`, …), which
/// stay on one line even in pretty output.
struct JSONTextWriter: DocumentEmitter {
    /// How documents are arranged in the output.
    enum Layout {
        /// `[`, the documents separated by `,` and a new line, `]`.
        case array
        /// One compact document per line.
        case lines
    }

    private struct Frame {
        var hasMembers = false
        let isArray: Bool
    }

    var out: [UInt8] = []
    private let layout: Layout
    private let pretty: Bool
    /// Inside an array of documents, pretty documents start one level in.
    private let baseLevel: Int
    private var frames: [Frame] = []
    private var documentCount = 0

    init(layout: Layout, pretty: Bool) {
        self.layout = layout
        self.pretty = pretty && layout == .array
        baseLevel = layout == .array ? 1 : 0
    }

    // MARK: Documents

    mutating func beginDocument() {
        guard layout == .array else { return }
        ValueText.append(documentCount == 0 ? "[\n" : ",\n", to: &out)
        if pretty { ValueText.appendSpaces(2 * baseLevel, to: &out) }
    }

    mutating func endDocument() {
        documentCount += 1
        if layout == .lines { out.append(UInt8(ascii: "\n")) }
    }

    mutating func abandonDocument() {
        frames.removeAll(keepingCapacity: true)
    }

    mutating func finish() {
        guard layout == .array else { return }
        ValueText.append(documentCount == 0 ? "[]\n" : "\n]\n", to: &out)
    }

    // MARK: Containers

    mutating func beginObject(count: Int, anchor: String?) {
        beforeValue()
        out.append(UInt8(ascii: "{"))
        frames.append(Frame(isArray: false))
    }

    mutating func key(_ key: String) throws(WriteFailure) {
        separateMember()
        Self.appendString(key, to: &out)
        ValueText.append(pretty ? ": " : ":", to: &out)
    }

    mutating func propertyKey(_ property: FieldPlan) throws(WriteFailure) {
        separateMember()
        out.append(contentsOf: property.jsonName)
        ValueText.append(pretty ? ": " : ":", to: &out)
    }

    mutating func endObject(anchor: String?) {
        closeFrame()
        out.append(UInt8(ascii: "}"))
    }

    mutating func beginArray(count: Int) {
        beforeValue()
        out.append(UInt8(ascii: "["))
        frames.append(Frame(isArray: true))
    }

    mutating func endArray() {
        closeFrame()
        out.append(UInt8(ascii: "]"))
    }

    /// Array elements need a separator; object members got theirs with the key.
    @inline(__always)
    private mutating func beforeValue() {
        if let last = frames.last, last.isArray { separateMember() }
    }

    private mutating func separateMember() {
        let top = frames.count - 1
        guard top >= 0 else { return }
        if frames[top].hasMembers { out.append(UInt8(ascii: ",")) }
        frames[top].hasMembers = true
        if pretty { newLine() }
    }

    private mutating func closeFrame() {
        guard let frame = frames.popLast() else { return }
        if pretty && frame.hasMembers { newLine() }
    }

    private mutating func newLine() {
        out.append(UInt8(ascii: "\n"))
        ValueText.appendSpaces(2 * (frames.count + baseLevel), to: &out)
    }

    // MARK: Scalars

    mutating func null() {
        beforeValue()
        ValueText.append("null", to: &out)
    }

    mutating func bool(_ value: Bool) {
        beforeValue()
        ValueText.append(value ? "true" : "false", to: &out)
    }

    mutating func int(_ value: Int64) {
        beforeValue()
        ValueText.appendInteger(value, to: &out)
    }

    mutating func double(_ value: Double) {
        beforeValue()
        ValueText.appendDouble(value, to: &out)
    }

    mutating func float(_ value: Float) {
        beforeValue()
        ValueText.appendFloat(value, to: &out)
    }

    mutating func infinity(negative: Bool) {
        beforeValue()
        beginWrapper("$numberDouble")
        ValueText.append(negative ? "\"-Infinity\"}" : "\"Infinity\"}", to: &out)
    }

    mutating func string(_ value: String) throws(WriteFailure) {
        beforeValue()
        Self.appendString(value, to: &out)
    }

    mutating func date(milliseconds: Int64) {
        beforeValue()
        beginWrapper("$date")
        if ValueText.isoDateRange.contains(milliseconds) {
            out.append(UInt8(ascii: "\""))
            ValueText.appendISODate(milliseconds: milliseconds, to: &out)
            ValueText.append("\"}", to: &out)
        } else {
            // ISO-8601 needs a four-digit year; the mapper also reads milliseconds as a long.
            beginWrapper("$numberLong")
            out.append(UInt8(ascii: "\""))
            ValueText.appendInteger(milliseconds, to: &out)
            ValueText.append("\"}}", to: &out)
        }
    }

    mutating func data(_ value: Data) {
        beforeValue()
        beginWrapper("$binary")
        ValueText.append(pretty ? "{\"base64\": \"" : "{\"base64\":\"", to: &out)
        ValueText.appendBase64(value, to: &out)
        ValueText.append(pretty ? "\", \"subType\": \"00\"}}" : "\",\"subType\":\"00\"}}", to: &out)
    }

    mutating func decimal(_ value: Decimal128) {
        beforeValue()
        beginWrapper("$numberDecimal")
        out.append(UInt8(ascii: "\""))
        ValueText.append(value.description, to: &out)
        ValueText.append("\"}", to: &out)
    }

    mutating func objectId(_ value: ObjectId) {
        beforeValue()
        beginWrapper("$oid")
        out.append(UInt8(ascii: "\""))
        ValueText.appendHex(value.bytes, to: &out)
        ValueText.append("\"}", to: &out)
    }

    mutating func uuid(_ value: UUID, tagged: Bool) {
        beforeValue()
        if tagged { beginWrapper("$uuid") }
        out.append(UInt8(ascii: "\""))
        ValueText.appendUUID(value, to: &out)
        out.append(UInt8(ascii: "\""))
        if tagged { out.append(UInt8(ascii: "}")) }
    }

    /// JSON has no aliases; a reference is `{"$ref": name}` (`aliasName` never asks for one).
    mutating func alias(_ name: String) {
        beginObject(count: 1, anchor: nil)
        separateMember()
        ValueText.append(pretty ? "\"$ref\": " : "\"$ref\":", to: &out)
        Self.appendString(name, to: &out)
        endObject(anchor: nil)
    }

    func anchorName(for id: Value) -> String? { nil }

    func aliasName(for id: Value) -> String? { nil }

    /// `{"$key":` and, in pretty output, a space; the caller writes the value and the `}`.
    private mutating func beginWrapper(_ key: StaticString) {
        ValueText.append("{\"", to: &out)
        ValueText.append(key, to: &out)
        ValueText.append(pretty ? "\": " : "\":", to: &out)
    }

    // MARK: Strings

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The letter after the backslash that escapes `byte` (`u` for `\u00XX`), or 0 if it is written as is.
    @inline(__always)
    private static func escapeLetter(_ byte: UInt8) -> UInt8 {
        if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") { return 0 }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): return byte
        case 0x08: return UInt8(ascii: "b")
        case 0x09: return UInt8(ascii: "t")
        case 0x0A: return UInt8(ascii: "n")
        case 0x0C: return UInt8(ascii: "f")
        case 0x0D: return UInt8(ascii: "r")
        default: return UInt8(ascii: "u")
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped, everything else
    /// (non-ASCII included) as raw UTF-8.
    static func appendString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let escape = Self.escapeLetter(bytes[index])
                guard escape != 0 else { continue }
                if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                out.append(UInt8(ascii: "\\"))
                out.append(escape)
                if escape == UInt8(ascii: "u") {
                    ValueText.append("00", to: &out)
                    out.append(Self.hexDigits[Int(bytes[index] >> 4)])
                    out.append(Self.hexDigits[Int(bytes[index] & 0x0F)])
                }
                runStart = index + 1
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count])) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
