/// Number and literal (`true`, `false`, `null`) tokens.
extension JSONScanner {
    @inline(__always)
    private static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// Scans the number at `pos` (a '-' or a digit) and leaves `pos` after it.
    mutating func scanNumber() throws(KuraError) -> NumberLiteral {
        // First get the whole literal into the window: up to a byte that cannot be part of a number,
        // looking on after a refill from where the window ended (a long literal is scanned once).
        var start = pos
        var i = start
        while true {
            while i < end {
                let b = buf[i]
                guard Self.isDigit(b) || b == 0x2D || b == 0x2B || b == 0x2E || b == 0x65 || b == 0x45 else { break }
                i += 1
            }
            if i < end { break }
            let done = i - start
            guard try refill(keeping: &start) else { break }
            i = start + done
        }
        // Now reaching `end` means the input ended.
        let p = buf
        let e = end
        i = start
        let negative = p[i] == 0x2D
        if negative { i += 1 }

        // The integer part's digits go into `significand` while it cannot overflow; a literal that
        // is not an integer keeps its text, and its values are worked out from it when asked.
        var significand: UInt64 = 0
        var overflow = false

        guard i < e else { throw endError(" in number") }
        if p[i] == 0x30 {
            i += 1
            if i < e && Self.isDigit(p[i]) {
                throw error(.invalidNumber, "leading zeros are not allowed in numbers", at: i - 1)
            }
        } else if Self.isDigit(p[i]) {
            while i < e && Self.isDigit(p[i]) {
                accumulate(p[i], into: &significand, overflow: &overflow)
                i += 1
            }
        } else {
            throw missingDigit(at: i)
        }
        var isInteger = true
        if i < e && p[i] == 0x2E {
            isInteger = false
            i += 1
            guard i < e else { throw endError(" in number") }
            guard Self.isDigit(p[i]) else { throw missingDigit(at: i) }
            while i < e && Self.isDigit(p[i]) { i += 1 }
        }
        if i < e && (p[i] == 0x65 || p[i] == 0x45) {
            isInteger = false
            i += 1
            guard i < e else { throw endError(" in number") }
            if p[i] == 0x2D || p[i] == 0x2B { i += 1 }
            guard i < e else { throw endError(" in number") }
            guard Self.isDigit(p[i]) else { throw missingDigit(at: i) }
            while i < e && Self.isDigit(p[i]) { i += 1 }
        }
        pos = i
        // Most literals are integers: kept as the value, their text its decimal form (but `-0`).
        if isInteger, !(negative && significand == 0),
            let exact = JSONNumberText.int64Value(significand, negative: negative, overflow: overflow)
        {
            return NumberLiteral(integer: exact)
        }
        return NumberLiteral(json: String(decoding: UnsafeBufferPointer(start: p + start, count: i - start), as: UTF8.self))
    }

    @inline(__always)
    private func accumulate(_ digit: UInt8, into significand: inout UInt64, overflow: inout Bool) {
        JSONNumberText.accumulate(digit, into: &significand, overflow: &overflow)
    }

    private mutating func missingDigit(at i: Int) -> KuraError {
        var e = unexpected(at: i, " in number, expected a digit")
        if e.code == .document(.syntax) { e.code = .document(.invalidNumber) }
        return e
    }

    /// Scans `true`, `false` or `null` at `pos` (whose first byte is 't', 'f' or 'n').
    mutating func scanLiteral() throws(KuraError) -> DocumentValue {
        let word: StaticString
        let value: DocumentValue
        switch buf[pos] {
        case 0x74: word = "true"; value = .bool(true)
        case 0x66: word = "false"; value = .bool(false)
        default: word = "null"; value = .null
        }
        let count = word.utf8CodeUnitCount
        try ensure(count)
        let letters = word.utf8Start
        for k in 1..<count {
            guard pos + k < end else { throw endError(" in literal") }
            if buf[pos + k] != letters[k] {
                throw error(.syntax, "invalid literal, expected '\(word)'", at: pos + k)
            }
        }
        pos += count
        return value
    }
}
