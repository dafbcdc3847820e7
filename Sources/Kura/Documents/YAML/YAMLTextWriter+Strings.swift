/// The strings of a YAML stream: plain when `YAMLScalarResolver` reads them back as the same
/// string, double-quoted with YAML's escapes otherwise.
extension YAMLTextWriter {
    /// Whether the text reads back whole; see `checkCarried`.
    static func isCarried(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        return !(bytes.next() == 0xEF && bytes.next() == 0xBB && bytes.next() == 0xBF)
    }

    /// Yams converts each scalar with Foundation's `String(bytes:encoding:)`, which drops a leading
    /// byte order mark however it is escaped, so such a string would read back shorter.
    static func checkCarried(_ text: String) throws(WriteFailure) {
        if !isCarried(text) {
            throw WriteFailure(.unwritableValue, "YAML cannot carry a string that starts with U+FEFF (the reader drops it); use JSON")
        }
    }

    /// A string as a plain scalar when that reads back as the same string, else double-quoted.
    mutating func appendText(_ text: String) {
        if Self.isPlain(text) {
            ValueText.append(text, to: &out)
        } else {
            appendQuoted(text)
        }
    }

    /// Whether a plain scalar may start with this ASCII byte.
    @inline(__always)
    fileprivate static func isPlainFirst(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "$"), UInt8(ascii: "("), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    /// Whether a plain scalar may contain this ASCII byte after its first: not `:` or `#` (which
    /// can end a plain scalar), flow indicators, quotes, backslashes, tabs or control characters.
    @inline(__always)
    fileprivate static func isPlainInner(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: " "), UInt8(ascii: "!"), UInt8(ascii: "$")...UInt8(ascii: "/"), UInt8(ascii: ";")...UInt8(ascii: "@"),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Whether `text` can be written as a plain scalar: non-empty, no leading or trailing space,
    /// only safe characters, and resolved as a string (not `yes`, `null`, `1`, `1e3`, a date…).
    static func isPlain(_ text: String) -> Bool {
        var text = text
        let safe = text.withUTF8 { bytes -> Bool in
            guard let first = bytes.first, let last = bytes.last, last != UInt8(ascii: " ") else { return false }
            if first < 0x80 && !isPlainFirst(first) { return false }
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    if !isPlainInner(byte) { return false }
                } else if needsEscape(bytes, at: index) != nil {
                    return false
                }
            }
            return true
        }
        return safe && YAMLScalarResolver.resolve(text) == .string
    }

    /// The code point to escape for the multi-byte character starting at `index`: C1 controls and
    /// NEL (U+0080–U+009F), line and paragraph separators (which YAML reads as line breaks), the
    /// byte order mark and the non-characters U+FFFE and U+FFFF. Nil for anything else.
    fileprivate static func needsEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        let lead = bytes[index]
        guard lead == 0xC2 || lead == 0xE2 || lead == 0xEF, index + 1 < bytes.count else { return nil }
        let second = bytes[index + 1]
        if lead == 0xC2 { return second < 0xA0 ? UInt32(second) : nil }
        guard index + 2 < bytes.count else { return nil }
        let third = bytes[index + 2]
        switch (lead, second, third) {
        case (0xE2, 0x80, 0xA8): return 0x2028
        case (0xE2, 0x80, 0xA9): return 0x2029
        case (0xEF, 0xBB, 0xBF): return 0xFEFF
        case (0xEF, 0xBF, 0xBE): return 0xFFFE
        case (0xEF, 0xBF, 0xBF): return 0xFFFF
        default: return nil
        }
    }

    fileprivate static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// A double-quoted scalar: `\"`, `\\`, `\t`, `\n`, `\r`, and `\xXX` or `\uXXXX` for the
    /// characters libyaml does not accept raw or reads as line breaks.
    fileprivate mutating func appendQuoted(_ text: String) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                var escapedLength = 1
                var escape: UInt32?
                if byte < 0x80 {
                    if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                        escape = UInt32(byte)
                    }
                } else if let code = Self.needsEscape(bytes, at: index) {
                    escape = code
                    escapedLength = code < 0x100 ? 2 : 3
                }
                guard let escape else {
                    index += 1
                    continue
                }
                if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                appendEscape(escape)
                index += escapedLength
                runStart = index
            }
            if runStart < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    fileprivate mutating func appendEscape(_ code: UInt32) {
        out.append(UInt8(ascii: "\\"))
        switch code {
        case 0x22: out.append(UInt8(ascii: "\""))
        case 0x5C: out.append(UInt8(ascii: "\\"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0..<0x100:
            out.append(UInt8(ascii: "x"))
            out.append(Self.hexDigits[Int(code >> 4)])
            out.append(Self.hexDigits[Int(code & 0x0F)])
        default:
            out.append(UInt8(ascii: "u"))
            for shift in stride(from: 12, through: 0, by: -4) {
                out.append(Self.hexDigits[Int(code >> UInt32(shift) & 0x0F)])
            }
        }
    }
}
