/// Number and literal (`true`, `false`, `null`) tokens.
extension JSONScanner {
    /// Powers of ten that a Double holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    @inline(__always)
    private static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// Scans the number at `pos` (a '-' or a digit) and leaves `pos` after it.
    mutating func scanNumber() throws(DocumentError) -> NumberLiteral {
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

        // All digits go into `significand` while it cannot overflow; an exact Double needs ≤ 2^53.
        var significand: UInt64 = 0
        var overflow = false
        var fractionDigits = 0

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
            while i < e && Self.isDigit(p[i]) {
                accumulate(p[i], into: &significand, overflow: &overflow)
                if !overflow { fractionDigits += 1 }
                i += 1
            }
        }
        var exponent = 0
        if i < e && (p[i] == 0x65 || p[i] == 0x45) {
            isInteger = false
            i += 1
            guard i < e else { throw endError(" in number") }
            let negativeExponent = p[i] == 0x2D
            if negativeExponent || p[i] == 0x2B { i += 1 }
            guard i < e else { throw endError(" in number") }
            guard Self.isDigit(p[i]) else { throw missingDigit(at: i) }
            while i < e && Self.isDigit(p[i]) {
                // Clamped: anything this large is out of Double's range anyway.
                if exponent < 100_000 { exponent = exponent * 10 + Int(p[i] - 0x30) }
                i += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        pos = i
        let text = String(decoding: UnsafeBufferPointer(start: p + start, count: i - start), as: UTF8.self)

        var int64Value: Int64?
        if isInteger && !overflow {
            if !negative {
                if significand <= UInt64(Int64.max) { int64Value = Int64(significand) }
            } else if significand <= UInt64(Int64.max) {
                int64Value = -Int64(significand)
            } else if significand == UInt64(Int64.max) + 1 {
                int64Value = .min
            }
        }

        // Exact significand and exact power of ten: one correctly rounded operation (Clinger's fast path).
        var double: Double?
        let scale = exponent - fractionDigits
        if !overflow && significand <= 1 << 53 && scale >= -22 && scale <= 22 {
            let value = Double(significand)
            let magnitude = scale >= 0 ? value * Self.exactPowersOfTen[scale] : value / Self.exactPowersOfTen[-scale]
            double = negative ? -magnitude : magnitude
        } else {
            double = Double(text)
        }
        return NumberLiteral(text: text, isInteger: isInteger, int64Value: int64Value, doubleValue: double ?? .nan)
    }

    @inline(__always)
    private func accumulate(_ digit: UInt8, into significand: inout UInt64, overflow: inout Bool) {
        if overflow { return }
        let (times10, o1) = significand.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(UInt64(digit - 0x30))
        if o1 || o2 { overflow = true } else { significand = sum }
    }

    private mutating func missingDigit(at i: Int) -> DocumentError {
        var e = unexpected(at: i, " in number, expected a digit")
        if e.code == .syntax { e.code = .invalidNumber }
        return e
    }

    /// Scans `true`, `false` or `null` at `pos` (whose first byte is 't', 'f' or 'n').
    mutating func scanLiteral() throws(DocumentError) -> DocumentValue {
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
