import Kura

/// Counts the documents of an export stream by type as the bytes pass, without parsing them: a
/// whole-realm export opens each document with its `"$type"` (YAML: `$type:`), an export of one
/// type names none and counts under that type.
public struct ExportTally: Sendable {
    /// Documents by type.
    public private(set) var documents: [String: Int] = [:]
    /// Every document.
    public var total: Int { documents.values.reduce(0, +) }

    private let format: DocumentFormat
    private let fallbackType: String
    // JSON: the scanner's state.
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var stage = Stage.none
    private var text: [UInt8] = []
    // YAML: the line being read, and whether a document's first line is still to come.
    private var awaitingType = false

    private enum Stage { case none, firstKey, typeValue }

    /// A tally of an export in `format`, counting documents without `"$type"` under `type`.
    public init(format: DocumentFormat, type: String?) {
        self.format = format
        fallbackType = type ?? ""
    }

    /// Reads the next bytes of the stream.
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            if format == .yaml { yaml(byte) } else { json(byte) }
        }
    }

    /// Ends the stream: a document still waiting for its type counts under the fallback type.
    public mutating func finish() {
        if format == .yaml, !text.isEmpty { yamlLine() }
        if awaitingType || stage != .none { count(fallbackType) }
        awaitingType = false
        stage = .none
    }

    private var documentDepth: Int { format == .json ? 1 : 0 }

    private mutating func json(_ byte: UInt8) {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                endString()
                return
            }
            if stage != .none { text.append(byte) }
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            text.removeAll(keepingCapacity: true)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            if stage == .typeValue { settle(fallbackType) }
            if byte == UInt8(ascii: "{") && depth == documentDepth { stage = .firstKey }
            depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth == documentDepth && stage != .none { settle(fallbackType) }
        case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: ":"), UInt8(ascii: ","):
            break
        default:
            if stage == .typeValue { settle(fallbackType) }
        }
    }

    private mutating func endString() {
        switch stage {
        case .firstKey:
            if text.elementsEqual("$type".utf8) { stage = .typeValue } else { settle(fallbackType) }
        case .typeValue: settle(String(decoding: text, as: UTF8.self))
        case .none: break
        }
    }

    private mutating func settle(_ type: String) {
        count(type)
        stage = .none
    }

    private mutating func yaml(_ byte: UInt8) {
        if byte == UInt8(ascii: "\n") { yamlLine() } else { text.append(byte) }
    }

    private mutating func yamlLine() {
        defer { text.removeAll(keepingCapacity: true) }
        if text.elementsEqual("---".utf8) || text.starts(with: "--- ".utf8) {
            if awaitingType { count(fallbackType) }
            awaitingType = true
            return
        }
        guard awaitingType else { return }
        awaitingType = false
        let prefix = Array("$type: ".utf8)
        count(text.starts(with: prefix) ? String(decoding: text.dropFirst(prefix.count), as: UTF8.self) : fallbackType)
    }

    private mutating func count(_ type: String) {
        documents[type, default: 0] += 1
    }
}
