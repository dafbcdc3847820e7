import KuraTestSupport

/// Byte-level mutations of valid documents: the damage real files suffer (truncation, bad bytes,
/// stray punctuation) and the tricks hostile ones use (escapes, surrogates, huge numbers, YAML
/// anchors, aliases, tags and markers), stacked a few at a time.
struct FuzzMutator {
    /// Byte sequences that mean something to a JSON or YAML reader.
    static let tokens: [[UInt8]] = [
        "\"", "\\", "[", "]", "{", "}", ",", ":", "-", ".", "e", "E", "+", "0", "-0", "1e400", "-1e400",
        "true", "null", "fals", "\\u0000", "\\ud800", "\\udc00", "\\ud800\\udc00", "\\u00", "\\x", "\\\"",
        "*a", "&a ", "*a ", "&a [", "!!binary ", "!!int ", "!!str ", "!!float ", "!!timestamp ", "!!map ", "!custom ",
        "<<: ", "<<", "---\n", "\n---\n", "...\n", "? ", "%YAML 1.2\n", "%TAG ! tag:x,2000:\n", "|\n", ">-\n",
        "\t", "\r", "\r\n", "\n", " ", "  ", "#", "'", "''", "&", "*", "!", "@", "`", "%",
        "{\"$ref\": \"a\"}", "{\"$date\": \"2024-02-29T12:00:00Z\"}", "{\"$oid\": \"507f1f77bcf86cd799439011\"}",
        "{\"$numberDecimal\": \"1e6144\"}", "{\"$binary\": {\"base64\": \"AAEC/w==\", \"subType\": \"00\"}}",
        "{\"$numberLong\": \"9223372036854775808\"}", "\"$id\": \"a\", ", "\"$type\": \"Person\", ", "\"a.b\": 1, ",
        "\"$k\": 1, ", "2024-02-30T25:61:00Z", "0x1F", "1_000", ".inf", ".nan", "~", "9223372036854775808",
        "-9223372036854775809", "1.7976931348623157e309", "3.4028236e38", "\u{FEFF}", "\u{2028}",
    ].map { Array($0.utf8) } + [
        [0x00], [0xC0, 0xAF], [0xFF], [0xED, 0xA0, 0x80], [0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80],
        [0xEF, 0xBB, 0xBF], [0xC2], [0xF0, 0x9F, 0x98, 0x80],
    ]

    /// Single bytes worth trying anywhere.
    static let bytes: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x20, 0x22, 0x23, 0x26, 0x2A, 0x2C, 0x2D, 0x3A, 0x5B, 0x5C, 0x5D, 0x7B, 0x7D, 0x7F, 0x80, 0xC0, 0xED, 0xFF]

    let corpus: [[UInt8]]

    /// A mutant of `base` with one to four mutations; `corpus` supplies splices.
    func mutate(_ base: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
        var out = base
        for _ in 0...rng.below(4) { mutateOnce(&out, using: &rng) }
        return out
    }

    private func mutateOnce(_ out: inout [UInt8], using rng: inout SplitMix64) {
        let at = rng.below(out.count + 1)
        switch rng.below(11) {
        case 0 where !out.isEmpty:  // flip one bit
            out[min(at, out.count - 1)] ^= 1 << UInt8(rng.below(8))
        case 1 where !out.isEmpty:  // overwrite a byte
            out[min(at, out.count - 1)] = Self.bytes[rng.below(Self.bytes.count)]
        case 2, 3:  // insert a token
            out.insert(contentsOf: Self.tokens[rng.below(Self.tokens.count)], at: at)
        case 4:  // delete a range
            out.removeSubrange(at..<min(out.count, at + 1 + rng.below(16)))
        case 5:  // duplicate a range elsewhere
            let range = randomRange(in: out, using: &rng)
            out.insert(contentsOf: Array(out[range]), at: rng.below(out.count + 1))
        case 6:  // splice in a range of another corpus entry
            let other = corpus[rng.below(corpus.count)]
            let range = randomRange(in: other, using: &rng)
            if rng.oneIn(2) {
                out.insert(contentsOf: other[range], at: at)
            } else {
                out.replaceSubrange(at..<min(out.count, at + range.count), with: other[range])
            }
        case 7:  // a long digit run, as a number or inside one
            let digits = (0..<(20 + rng.below(400))).map { _ in UInt8(0x30 + rng.below(10)) }
            out.insert(contentsOf: digits, at: at)
        case 8:  // deep nesting
            let open: UInt8 = rng.oneIn(2) ? 0x5B : 0x7B
            out.insert(contentsOf: [UInt8](repeating: open, count: 1 + rng.below(rng.oneIn(8) ? 1200 : 40)), at: at)
        case 9:  // truncate
            out.removeSubrange(at...)
        default:  // replace a range by one repeated byte
            let range = randomRange(in: out, using: &rng)
            out.replaceSubrange(range, with: repeatElement(Self.bytes[rng.below(Self.bytes.count)], count: range.count))
        }
    }

    /// A range of up to 64 bytes within `bytes` (empty for empty input).
    private func randomRange(in bytes: [UInt8], using rng: inout SplitMix64) -> Range<Int> {
        guard !bytes.isEmpty else { return 0..<0 }
        let start = rng.below(bytes.count)
        return start..<min(bytes.count, start + 1 + rng.below(64))
    }
}
