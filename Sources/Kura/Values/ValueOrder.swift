import Foundation

/// Realm's equality and order of values (its `Mixed::compare`), the one definition Kura uses
/// wherever it compares values: set elements, predicates and `modified` updates.
///
/// - Numbers of every kind (int, float, double, decimal) compare by value: `1`, `1.0` and decimal
///   `1.00` are equal. A double meets a decimal rounded to 15 significant digits, a float to 7, as
///   Realm converts them; ints and doubles compare exactly.
/// - Zeros of either sign are equal; NaN equals itself and lies below every other number, −∞ included.
/// - Other kinds compare only with their own kind (a bool is not a number); strings, data, object
///   ids and UUIDs by their bytes.
enum ValueOrder {
    /// A number of any kind, as it takes part in comparisons.
    private enum Number {
        case int(Int64)
        case binary(Double, digits: Int)
        case decimal(Decimal128)

        init?(_ value: Value) {
            switch value {
            case .int(let number): self = .int(number)
            case .float(let number): self = .binary(Double(number), digits: 7)
            case .double(let number): self = .binary(number, digits: 15)
            case .decimal(let number): self = .decimal(number)
            default: return nil
            }
        }
    }

    /// How `lhs` compares with `rhs`; `nil` when Realm does not compare their kinds (a string with a
    /// number, null with anything but null, lists and maps for order).
    static func compare(_ lhs: Value, _ rhs: Value) -> ComparisonResult? {
        if let left = Number(lhs), let right = Number(rhs) { return compare(left, right) }
        switch (lhs, rhs) {
        case (.null, .null): return .orderedSame
        case (.bool(let left), .bool(let right)): return order(left ? 1 : 0, right ? 1 : 0)
        case (.string(let left), .string(let right)): return bytes(Array(left.utf8), Array(right.utf8))
        case (.data(let left), .data(let right)): return bytes(Array(left), Array(right))
        case (.date(let left), .date(let right)): return order(left.timeIntervalSince1970, right.timeIntervalSince1970)
        case (.objectId(let left), .objectId(let right)): return bytes(left.bytes, right.bytes)
        case (.uuid(let left), .uuid(let right)):
            return bytes(Array(left.bytes), Array(right.bytes))
        case (.object(let left), .object(let right)):
            if left.type != right.type { return left.type < right.type ? .orderedAscending : .orderedDescending }
            return order(left.id, right.id)
        case (.list, .list), (.map, .map):
            return lhs == rhs ? .orderedSame : nil
        default:
            return nil
        }
    }

    /// Whether `lhs` equals `rhs` as a set tells its elements apart (null equals null).
    static func equal(_ lhs: Value, _ rhs: Value) -> Bool {
        compare(lhs, rhs) == .orderedSame
    }

    /// Whether `modified` leaves a stored value `old` alone when given `new`: values of one kind,
    /// equal, zeros of one sign (Realm keeps a mixed int 1 given a double 1.0 as changed, a decimal 1.0 given 1.00 as not).
    /// Lists and maps compare element by element, each with this rule.
    static func unchanged(_ old: Value, _ new: Value) -> Bool {
        unchanged(old, new, exactly: false)
    }

    /// Whether `update` and `replace` leave a stored value `old` alone when given `new`: unchanged
    /// as `modified` compares, and written the same way too (a decimal 1.0 given 1.00 is written).
    static func identical(_ old: Value, _ new: Value) -> Bool {
        unchanged(old, new, exactly: true)
    }

    private static func unchanged(_ old: Value, _ new: Value, exactly: Bool) -> Bool {
        var pending = [(old, new)]
        while let (left, right) = pending.popLast() {
            switch (left, right) {
            case (.list(let lefts), .list(let rights)):
                guard lefts.count == rights.count else { return false }
                pending.append(contentsOf: zip(lefts, rights))
            case (.map(let lefts), .map(let rights)):
                guard lefts.count == rights.count else { return false }
                for (key, value) in lefts {
                    guard let other = rights[key] else { return false }
                    pending.append((value, other))
                }
            case (.decimal(let left), .decimal(let right)) where exactly:
                guard left == right else { return false }
            default:
                guard sameKind(left, right), equal(left, right), sameZeroSign(left, right) else { return false }
            }
        }
        return true
    }

    /// Whether two equal values agree on the sign of a zero: a -0.0 given over 0.0 is written, so
    /// that values come back as they went in.
    private static func sameZeroSign(_ lhs: Value, _ rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.double(let left), .double(let right)): left.sign == right.sign
        case (.float(let left), .float(let right)): left.sign == right.sign
        default: true
        }
    }

    /// Orders decimals by value: NaN first (equal to itself), then −∞, the numbers and +∞; every zero equal.
    static func compare(_ lhs: Decimal128, _ rhs: Decimal128) -> ComparisonResult {
        let left = rank(lhs)
        let right = rank(rhs)
        if left != right { return order(left, right) }
        // Same rank: both finite and non-zero with one sign, or equal specials and zeros.
        guard lhs.special == nil, left == -1 || left == 1 else { return .orderedSame }
        let magnitude = compareMagnitudes(lhs, rhs)
        return left < 0 ? reversed(magnitude) : magnitude
    }

    /// Whether `value` is a number of any kind (int, float, double or decimal).
    static func isNumber(_ value: Value) -> Bool {
        Number(value) != nil
    }

    /// Keys under which a value is filed for finding equal values: values `equal` share at least one.
    /// Numbers are filed under normalized decimals, a double or float also under its rounded forms.
    static func keys(_ value: Value) -> [Value] {
        guard let number = Number(value) else { return [value] }
        switch number {
        case .int(let integer):
            return [.decimal(Decimal128(integer).normalized)]
        case .decimal(let decimal):
            return [.decimal(decimal.normalized)]
        case .binary(let double, let digits):
            var keys = [Value.decimal(Decimal128(double, significantDigits: 15).normalized)]
            if digits != 15 { keys.append(.decimal(Decimal128(double, significantDigits: digits).normalized)) }
            if let integer = Int64(exactly: double) { keys.append(.decimal(Decimal128(integer).normalized)) }
            return keys
        }
    }

    // MARK: Numbers

    private static func compare(_ lhs: Number, _ rhs: Number) -> ComparisonResult {
        switch (lhs, rhs) {
        case (.int(let left), .int(let right)): return order(left, right)
        case (.int(let left), .binary(let right, _)): return compare(left, right)
        case (.binary(let left, _), .int(let right)): return reversed(compare(right, left))
        case (.binary(let left, _), .binary(let right, _)): return compareBinary(left, right)
        case (.decimal(let left), .decimal(let right)): return compare(left, right)
        case (.decimal(let left), _): return reversed(compare(rhs, .decimal(left)))
        case (.int(let left), .decimal(let right)): return compare(Decimal128(left), right)
        case (.binary(let left, let digits), .decimal(let right)):
            return compare(Decimal128(left, significantDigits: digits), right)
        }
    }

    /// An integer against a double, exactly (Realm's `compare_long_to_double`).
    private static func compare(_ integer: Int64, _ double: Double) -> ComparisonResult {
        if double.isNaN { return .orderedDescending }
        let exactLimit: Int64 = 1 << 53
        if integer <= exactLimit && integer >= -exactLimit { return compareBinary(Double(integer), double) }
        // Beyond 2^53 a double has no fraction: it is outside Int64's range or an integer.
        let bound = 9_223_372_036_854_775_808.0
        if double >= bound { return .orderedAscending }
        if double < -bound { return .orderedDescending }
        return order(integer, Int64(double))
    }

    /// Doubles in IEEE order (−0 equal to 0), NaN first and equal to NaN.
    private static func compareBinary(_ lhs: Double, _ rhs: Double) -> ComparisonResult {
        switch (lhs.isNaN, rhs.isNaN) {
        case (false, false): return order(lhs, rhs)
        case (true, true): return .orderedSame
        case (true, false): return .orderedAscending
        case (false, true): return .orderedDescending
        }
    }

    /// -4 NaN, -3 −∞, -1 negative, 0 zero, 1 positive, 3 +∞.
    private static func rank(_ number: Decimal128) -> Int {
        switch number.special {
        case .nan: return -4
        case .infinity: return number.isNegative ? -3 : 3
        case nil: return number.digits == "0" ? 0 : (number.isNegative ? -1 : 1)
        }
    }

    /// Compares |lhs| and |rhs| for non-zero finite decimals, exactly: first by the position of the
    /// leading digit, then digit by digit.
    private static func compareMagnitudes(_ lhs: Decimal128, _ rhs: Decimal128) -> ComparisonResult {
        let leftLead = lhs.exponent + lhs.digits.count
        let rightLead = rhs.exponent + rhs.digits.count
        if leftLead != rightLead { return order(leftLead, rightLead) }
        let left = Array(lhs.digits.utf8)
        let right = Array(rhs.digits.utf8)
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? left[index] : UInt8(ascii: "0")
            let r = index < right.count ? right[index] : UInt8(ascii: "0")
            if l != r { return order(l, r) }
        }
        return .orderedSame
    }

    // MARK: Helpers

    private static func sameKind(_ lhs: Value, _ rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null), (.bool, .bool), (.int, .int), (.float, .float), (.double, .double), (.string, .string),
            (.date, .date), (.data, .data), (.decimal, .decimal), (.objectId, .objectId), (.uuid, .uuid),
            (.object, .object), (.list, .list), (.map, .map):
            return true
        default:
            return false
        }
    }

    private static func order<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs == rhs ? .orderedSame : (lhs < rhs ? .orderedAscending : .orderedDescending)
    }

    private static func bytes(_ lhs: [UInt8], _ rhs: [UInt8]) -> ComparisonResult {
        for (left, right) in zip(lhs, rhs) where left != right { return order(left, right) }
        return order(lhs.count, rhs.count)
    }

    private static func reversed(_ result: ComparisonResult) -> ComparisonResult {
        switch result {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}
