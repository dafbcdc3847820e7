/// An exact running sum of decimals, for `@sum` and `@avg` of decimal properties: every digit is
/// kept while adding, and only the result is rounded to decimal128's 34 digits (half to even).
struct DecimalSum {
    /// The magnitude's digits, least significant first; `[0]` for zero.
    private var digits: [UInt8] = [0]
    private var isNegative = false
    /// The power of ten of the least significant digit.
    private var exponent = 0
    /// NaN or an infinity, once one is added (with the infinity's sign).
    private var special: (kind: Decimal128.Special, negative: Bool)?
    /// How many values were added.
    private(set) var count = 0

    /// Adds `value` to the sum.
    mutating func add(_ value: Decimal128) {
        count += 1
        if special?.kind == .nan { return }
        if let kind = value.special {
            if kind == .nan || (special?.kind == .infinity && special?.negative != value.isNegative) {
                special = (.nan, false)
            } else {
                special = (.infinity, value.isNegative)
            }
            return
        }
        if special != nil { return }
        var other = value.digits.utf8.reversed().map { $0 &- 48 }
        var mine = digits
        if value.exponent > exponent {
            other = [UInt8](repeating: 0, count: value.exponent - exponent) + other
        } else if exponent > value.exponent {
            mine = [UInt8](repeating: 0, count: exponent - value.exponent) + mine
            exponent = value.exponent
        }
        if isNegative == value.isNegative {
            digits = Self.add(mine, other)
        } else if Self.compare(mine, other) >= 0 {
            digits = Self.subtract(mine, other)
        } else {
            digits = Self.subtract(other, mine)
            isNegative = value.isNegative
        }
        if digits == [0] { isNegative = false }
    }

    /// The sum, rounded to 34 significant digits; 0 when nothing was added.
    var total: Decimal128 {
        if let special { return Self.special(special) }
        return Self.decimal(digits, exponent: exponent, negative: isNegative, sticky: false)
    }

    /// The mean of the values added, rounded to 34 significant digits; nil when nothing was added.
    var average: Decimal128? {
        guard count > 0 else { return nil }
        if let special { return Self.special(special) }
        // Enough digits that the quotient has 35 or more significant ones before rounding.
        let scale = Decimal128.maxDigits + 2 + String(count).count
        var dividend = [UInt8](repeating: 0, count: scale) + digits
        var remainder = 0
        for index in dividend.indices.reversed() {
            let current = remainder * 10 + Int(dividend[index])
            dividend[index] = UInt8(current / count)
            remainder = current % count
        }
        return Self.decimal(Self.trimmed(dividend), exponent: exponent - scale, negative: isNegative, sticky: remainder != 0)
    }

    private static func special(_ special: (kind: Decimal128.Special, negative: Bool)) -> Decimal128 {
        Decimal128(special.kind == .nan ? "NaN" : (special.negative ? "-Infinity" : "Infinity")) ?? Decimal128(0)
    }

    /// The decimal of `digits` × 10^`exponent`, rounded half to even to 34 digits; `sticky` says
    /// whether nonzero digits below the least significant one were dropped already.
    private static func decimal(_ digits: [UInt8], exponent: Int, negative: Bool, sticky: Bool) -> Decimal128 {
        var digits = trimmed(digits)
        var exponent = exponent
        var sticky = sticky
        if digits.count > Decimal128.maxDigits {
            let dropped = digits.count - Decimal128.maxDigits
            let first = digits[dropped - 1]
            sticky = sticky || digits[0..<(dropped - 1)].contains { $0 != 0 }
            digits = Array(digits[dropped...])
            exponent += dropped
            let roundsUp = first > 5 || (first == 5 && (sticky || digits[0] % 2 == 1))
            if roundsUp { digits = add(digits, [1]) }
            if digits.count > Decimal128.maxDigits {
                digits.removeFirst()
                exponent += 1
            }
        }
        // Trailing zeros of the coefficient go into the exponent only as far as the range needs.
        while exponent < Decimal128.exponentRange.lowerBound, digits.count > 1, digits[0] == 0 {
            digits.removeFirst()
            exponent += 1
        }
        let text = (negative ? "-" : "") + String(decoding: digits.reversed().map { $0 + 48 }, as: UTF8.self) + "E" + String(exponent)
        if let value = Decimal128(text) { return value }
        if exponent > 0 { return Decimal128(negative ? "-Infinity" : "Infinity") ?? Decimal128(0) }
        return Decimal128(0)
    }

    private static func trimmed(_ digits: [UInt8]) -> [UInt8] {
        var digits = digits
        while digits.count > 1, digits[digits.count - 1] == 0 { digits.removeLast() }
        return digits.isEmpty ? [0] : digits
    }

    private static func add(_ lhs: [UInt8], _ rhs: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(max(lhs.count, rhs.count) + 1)
        var carry: UInt8 = 0
        for index in 0..<max(lhs.count, rhs.count) {
            let sum = (index < lhs.count ? lhs[index] : 0) + (index < rhs.count ? rhs[index] : 0) + carry
            result.append(sum % 10)
            carry = sum / 10
        }
        if carry > 0 { result.append(carry) }
        return trimmed(result)
    }

    /// `lhs - rhs`, for `lhs` at least `rhs`.
    private static func subtract(_ lhs: [UInt8], _ rhs: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(lhs.count)
        var borrow: Int = 0
        for index in 0..<lhs.count {
            var difference = Int(lhs[index]) - Int(index < rhs.count ? rhs[index] : 0) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 10 }
            result.append(UInt8(difference))
        }
        return trimmed(result)
    }

    private static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        let left = trimmed(lhs)
        let right = trimmed(rhs)
        if left.count != right.count { return left.count < right.count ? -1 : 1 }
        for index in left.indices.reversed() where left[index] != right[index] {
            return left[index] < right[index] ? -1 : 1
        }
        return 0
    }
}
