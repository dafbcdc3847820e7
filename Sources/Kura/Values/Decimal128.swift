import Foundation

/// An exact decimal number in the range of IEEE 754 decimal128, as Realm's `Decimal128`.
///
/// Kura keeps the digits and exponent exactly as written (`1.50` stays `1.50`),
/// so a decimal reads back and exports as it was imported.
public struct Decimal128: Sendable, Hashable, CustomStringConvertible {
    /// Whether the value is negative.
    public let isNegative: Bool
    /// The coefficient's decimal digits, without leading zeros ("0" for zero); empty for NaN and infinities.
    public let digits: String
    /// The power of ten the coefficient is multiplied by.
    public let exponent: Int
    /// The special value, if this is not a finite number.
    public let special: Special?

    /// A decimal that is not a finite number.
    public enum Special: Sendable, Hashable { case nan, infinity }

    static let maxDigits = 34
    static let exponentRange = -6176...6111

    /// Parses a decimal string such as `-12.50`, `1e-3`, `NaN` or `-Infinity`; `nil` if it is not one
    /// or lies outside decimal128's range.
    public init?(_ text: String) {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        switch String(decoding: bytes, as: UTF8.self).lowercased() {
        case "nan": self.init(negative: false, special: .nan); return
        case "inf", "infinity": self.init(negative: negative, special: .infinity); return
        default: break
        }
        var coefficient: [UInt8] = []
        var fractionDigits = 0
        var sawPoint = false
        var sawDigit = false
        while let byte = bytes.first, byte == UInt8(ascii: ".") || (byte >= 48 && byte <= 57) {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                if sawPoint { return nil }
                sawPoint = true
                continue
            }
            sawDigit = true
            if sawPoint { fractionDigits += 1 }
            if !(coefficient.isEmpty && byte == UInt8(ascii: "0")) { coefficient.append(byte) }
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            guard !bytes.isEmpty else { return nil }
            for byte in bytes {
                guard byte >= 48 && byte <= 57 else { return nil }
                exponent = exponent * 10 + Int(byte - 48)
                if exponent > 100_000 { return nil }
            }
            bytes = bytes[bytes.endIndex...]
            if exponentNegative { exponent = -exponent }
        }
        guard bytes.isEmpty else { return nil }
        exponent -= fractionDigits
        if coefficient.isEmpty {
            // Zero keeps its exponent (0.00 is written back as 0.00), clamped into range.
            exponent = min(max(exponent, Self.exponentRange.lowerBound), Self.exponentRange.upperBound)
            self.init(negative: negative, digits: "0", exponent: exponent)
            return
        }
        guard coefficient.count <= Self.maxDigits, Self.exponentRange.contains(exponent) else { return nil }
        self.init(negative: negative, digits: String(decoding: coefficient, as: UTF8.self), exponent: exponent)
    }

    private init(negative: Bool, digits: String, exponent: Int) {
        self.isNegative = negative
        self.digits = digits
        self.exponent = exponent
        self.special = nil
    }

    private init(negative: Bool, special: Special) {
        self.isNegative = negative
        self.digits = ""
        self.exponent = 0
        self.special = special
    }

    /// The canonical text, following the decimal128 string conversion of the BSON specification.
    public var description: String {
        switch special {
        case .nan: return "NaN"
        case .infinity: return isNegative ? "-Infinity" : "Infinity"
        case nil: break
        }
        let sign = isNegative ? "-" : ""
        let adjusted = exponent + digits.count - 1
        if exponent <= 0 && adjusted >= -6 {
            if exponent == 0 { return sign + digits }
            let pointIndex = digits.count + exponent
            if pointIndex > 0 {
                let integer = digits.prefix(pointIndex)
                let fraction = digits.dropFirst(pointIndex)
                return sign + integer + "." + fraction
            }
            return sign + "0." + String(repeating: "0", count: -pointIndex) + digits
        }
        let mantissa = digits.count > 1 ? digits.prefix(1) + "." + digits.dropFirst() : Substring(digits)
        return sign + mantissa + "E" + (adjusted >= 0 ? "+" : "") + String(adjusted)
    }

    /// The decimal of an integer, exactly.
    init(_ integer: Int64) {
        self.init(negative: integer < 0, digits: String(integer.magnitude), exponent: 0)
    }

    /// The same number in its shortest form (trailing zeros of the coefficient dropped, every zero
    /// as `0`), so that decimals equal in value have equal normalized forms: `1.0`, `1.00` and `1`.
    var normalized: Decimal128 {
        if special != nil { return self }
        if digits == "0" { return Decimal128(negative: false, digits: "0", exponent: 0) }
        let kept = digits.utf8.reversed().drop { $0 == UInt8(ascii: "0") }.count
        if kept == digits.utf8.count { return self }
        return Decimal128(negative: isNegative, digits: String(digits.prefix(kept)), exponent: exponent + digits.count - kept)
    }

    /// `number` rounded to `significantDigits` decimal digits, as Realm converts a double (15 digits)
    /// or a float (7 digits) to a decimal when it compares them.
    init(_ number: Double, significantDigits: Int) {
        if number.isNaN {
            self.init(negative: false, special: .nan)
        } else if number.isInfinite {
            self.init(negative: number < 0, special: .infinity)
        } else {
            // "%.Ne" rounds the exact binary value, as Realm's quantize does; the text always parses.
            let text = String(format: "%.\(max(significantDigits, 1) - 1)e", number)
            self = Decimal128(text) ?? Decimal128(negative: false, special: .nan)
        }
    }

    /// The nearest `Double`, for ordering and arithmetic that need no exactness.
    public var doubleValue: Double {
        switch special {
        case .nan: return .nan
        case .infinity: return isNegative ? -.infinity : .infinity
        case nil: return Double(description) ?? .nan
        }
    }
}
