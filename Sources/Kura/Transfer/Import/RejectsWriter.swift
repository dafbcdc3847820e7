import Foundation

/// Writes the documents an import refused, one JSON line each, as they were read, with their errors
/// first under `"$errors"`: fix the documents in place and import the file again (the mapper skips
/// `"$errors"`). A positional (array) document is kept under `"$document"`.
public final class RejectsWriter {
    private let output: DocumentOutput
    /// The output's buffer while a document is appended to it; empty between documents.
    private var line: [UInt8] = []

    /// Writes to `output`.
    public init(output: DocumentOutput) {
        self.output = output
    }

    /// Appends one refused document with its error messages.
    public func write(_ document: DocumentNode, errors: [String]) throws(KuraError) {
        // Appends in place to the output's own buffer, taken and handed back by exchange.
        output.exchangeBuffer(&line)
        ValueText.append("{\"$errors\":[", to: &line)
        for (index, error) in errors.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            JSONTextWriter.appendString(error, to: &line)
        }
        ValueText.append("]", to: &line)
        var root = document
        if case .anchored(_, let inner) = root.value { root = inner }
        if case .object(let members) = root.value {
            for member in members where member.key != "$errors" {
                line.append(UInt8(ascii: ","))
                JSONTextWriter.appendString(member.key, to: &line)
                line.append(UInt8(ascii: ":"))
                append(member.value, depth: 1)
            }
        } else {
            ValueText.append(",\"$document\":", to: &line)
            append(root, depth: 1)
        }
        ValueText.append("}\n", to: &line)
        output.exchangeBuffer(&line)
        try output.flushIfFull()
    }

    /// Flushes and closes the output.
    public func close() throws(KuraError) { try output.close() }

    /// A node as JSON; YAML-only forms become the typed wrappers the mapper reads. Depth is bounded
    /// by the reader's nesting limit.
    private func append(_ node: DocumentNode, depth: Int) {
        switch node.value {
        case .null: ValueText.append("null", to: &line)
        case .bool(let flag): ValueText.append(flag ? "true" : "false", to: &line)
        case .number(let number): appendNumber(number)
        case .string(let text): JSONTextWriter.appendString(text, to: &line)
        case .array(let items):
            line.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                append(item, depth: depth + 1)
            }
            line.append(UInt8(ascii: "]"))
        case .object(let members):
            line.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                JSONTextWriter.appendString(member.key, to: &line)
                line.append(UInt8(ascii: ":"))
                append(member.value, depth: depth + 1)
            }
            line.append(UInt8(ascii: "}"))
        case .timestamp(let millis):
            ValueText.append("{\"$date\":\"", to: &line)
            ValueText.appendISODate(milliseconds: millis, to: &line)
            ValueText.append("\"}", to: &line)
        case .binary(let bytes):
            ValueText.append("{\"$binary\":{\"base64\":\"", to: &line)
            ValueText.appendBase64(bytes, to: &line)
            ValueText.append("\",\"subType\":\"00\"}}", to: &line)
        case .anchored(_, let inner): append(inner, depth: depth)
        case .alias(let name):
            ValueText.append("{\"$ref\":", to: &line)
            JSONTextWriter.appendString(name, to: &line)
            line.append(UInt8(ascii: "}"))
        }
    }

    /// JSON number text as read; YAML spellings JSON lacks (`0x1F`, `1_000`) by value.
    private func appendNumber(_ number: NumberLiteral) {
        if JSONNumberSyntax.isValid(number.text) {
            ValueText.append(number.text, to: &line)
        } else if let exact = number.int64Value {
            ValueText.appendInteger(exact, to: &line)
        } else {
            ValueText.appendDouble(number.doubleValue, to: &line)
        }
    }
}

/// RFC 8259's number grammar, to tell JSON number text from YAML's other spellings.
enum JSONNumberSyntax {
    static func isValid(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first, isDigit(first) else { return false }
        bytes = first == UInt8(ascii: "0") ? bytes.dropFirst() : bytes.drop(while: isDigit)
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard let digit = bytes.first, isDigit(digit) else { return false }
            bytes = bytes.drop(while: isDigit)
        }
        if let mark = bytes.first, mark == UInt8(ascii: "e") || mark == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard let digit = bytes.first, isDigit(digit) else { return false }
            bytes = bytes.drop(while: isDigit)
        }
        return bytes.isEmpty
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
