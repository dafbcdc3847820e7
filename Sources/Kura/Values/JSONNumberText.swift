/// The values of a JSON number literal, worked out from its text as the reader reads them.
enum JSONNumberText {
    /// Powers of ten that a Double holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// Whether a valid literal has neither a fraction nor an exponent.
    static func isInteger(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 0x2E || $0 == 0x65 || $0 == 0x45 }
    }

    /// The values of `text`, or nil unless it is a JSON number literal (RFC 8259).
    static func values(of text: String) -> (isInteger: Bool, int64Value: Int64?, doubleValue: Double)? {
        var text = text
        return text.withUTF8 { b -> (Bool, Int64?, Double)? in
            var i = 0
            let negative = i < b.count && b[i] == 0x2D
            if negative { i += 1 }
            var significand: UInt64 = 0
            var overflow = false
            var fractionDigits = 0
            guard i < b.count else { return nil }
            if b[i] == 0x30 {
                i += 1
            } else if isDigit(b[i]) {
                while i < b.count && isDigit(b[i]) {
                    accumulate(b[i], into: &significand, overflow: &overflow)
                    i += 1
                }
            } else {
                return nil
            }
            var isInteger = true
            if i < b.count && b[i] == 0x2E {
                isInteger = false
                i += 1
                guard i < b.count && isDigit(b[i]) else { return nil }
                while i < b.count && isDigit(b[i]) {
                    accumulate(b[i], into: &significand, overflow: &overflow)
                    if !overflow { fractionDigits += 1 }
                    i += 1
                }
            }
            var exponent = 0
            if i < b.count && (b[i] == 0x65 || b[i] == 0x45) {
                isInteger = false
                i += 1
                let negativeExponent = i < b.count && b[i] == 0x2D
                if i < b.count && (b[i] == 0x2D || b[i] == 0x2B) { i += 1 }
                guard i < b.count && isDigit(b[i]) else { return nil }
                while i < b.count && isDigit(b[i]) {
                    // Clamped: anything this large is out of Double's range anyway.
                    if exponent < 100_000 { exponent = exponent * 10 + Int(b[i] - 0x30) }
                    i += 1
                }
                if negativeExponent { exponent = -exponent }
            }
            guard i == b.count else { return nil }
            let int64 = isInteger ? int64Value(significand, negative: negative, overflow: overflow) : nil
            let double =
                fastDouble(significand, negative: negative, overflow: overflow, scale: exponent - fractionDigits)
                ?? Double(String(decoding: b, as: UTF8.self)) ?? .nan
            return (isInteger, int64, double)
        }
    }

    /// Adds a decimal digit to `significand`, or notes that it no longer fits.
    @inline(__always)
    static func accumulate(_ digit: UInt8, into significand: inout UInt64, overflow: inout Bool) {
        if overflow { return }
        let (times10, o1) = significand.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(UInt64(digit - 0x30))
        if o1 || o2 { overflow = true } else { significand = sum }
    }

    /// The integer of an integer literal's digits, nil outside Int64's range.
    static func int64Value(_ significand: UInt64, negative: Bool, overflow: Bool) -> Int64? {
        guard !overflow else { return nil }
        if !negative { return significand <= UInt64(Int64.max) ? Int64(significand) : nil }
        if significand <= UInt64(Int64.max) { return -Int64(significand) }
        return significand == UInt64(Int64.max) + 1 ? .min : nil
    }

    /// The Double of `significand` × 10^`scale` when both are exact in a Double: one correctly
    /// rounded operation (Clinger's fast path); nil otherwise, for the caller to convert the text.
    static func fastDouble(_ significand: UInt64, negative: Bool, overflow: Bool, scale: Int) -> Double? {
        guard !overflow && significand <= 1 << 53 && scale >= -22 && scale <= 22 else { return nil }
        let value = Double(significand)
        let magnitude = scale >= 0 ? value * exactPowersOfTen[scale] : value / exactPowersOfTen[-scale]
        return negative ? -magnitude : magnitude
    }
}
