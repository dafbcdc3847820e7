import Foundation
import GRDB

/// The SQL function and collation compiled queries use, installed on every connection of a realm.
enum QueryFunctions {
    /// `kura_fold(text)`: the text case-folded as `[c]` compares it (Unicode lowercase, unlike SQLite's
    /// ASCII-only `lower()` and `NOCASE`).
    static let fold = "kura_fold"
    /// `COLLATE kura_decimal`: orders decimal strings by value, so `1.5` equals `1.50` and `9` sorts before `10`.
    static let decimalCollation = "kura_decimal"

    /// Case-folds `text` as `[c]` does.
    static func fold(_ text: String) -> String { text.lowercased() }

    /// Adds the function and collation to a connection.
    static func install(in db: Database) {
        db.add(function: DatabaseFunction(fold, argumentCount: 1, pure: true) { arguments in
            guard case .string(let text) = arguments[0].storage else { return arguments[0] }
            return Self.fold(text)
        })
        db.add(collation: DatabaseCollation(decimalCollation) { lhs, rhs in compareDecimals(lhs, rhs) })
    }

    /// Orders decimal strings by value: NaN after everything (and equal to itself), text that is
    /// not a decimal after that, by its bytes.
    static func compareDecimals(_ lhs: String, _ rhs: String) -> ComparisonResult {
        switch (Decimal128(lhs), Decimal128(rhs)) {
        case (let left?, let right?): return compare(left, right)
        case (nil, nil): return lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
        case (nil, _): return .orderedDescending
        case (_, nil): return .orderedAscending
        }
    }

    static func compare(_ lhs: Decimal128, _ rhs: Decimal128) -> ComparisonResult {
        let left = rank(lhs)
        let right = rank(rhs)
        if left != right { return left < right ? .orderedAscending : .orderedDescending }
        // Same rank: both finite and non-zero with one sign, or equal specials and zeros.
        guard lhs.special == nil, left == -1 || left == 1 else { return .orderedSame }
        let magnitude = compareMagnitudes(lhs, rhs)
        return left < 0 ? magnitude.reversed : magnitude
    }

    /// -3 −∞, -1 negative, 0 zero, 1 positive, 3 +∞, 4 NaN.
    private static func rank(_ number: Decimal128) -> Int {
        switch number.special {
        case .nan: return 4
        case .infinity: return number.isNegative ? -3 : 3
        case nil: return number.digits == "0" ? 0 : (number.isNegative ? -1 : 1)
        }
    }

    /// Compares |lhs| and |rhs| for non-zero finite decimals, exactly: first by the position of the
    /// leading digit, then digit by digit.
    private static func compareMagnitudes(_ lhs: Decimal128, _ rhs: Decimal128) -> ComparisonResult {
        let leftLead = lhs.exponent + lhs.digits.count
        let rightLead = rhs.exponent + rhs.digits.count
        if leftLead != rightLead { return leftLead < rightLead ? .orderedAscending : .orderedDescending }
        let left = Array(lhs.digits.utf8)
        let right = Array(rhs.digits.utf8)
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? left[index] : UInt8(ascii: "0")
            let r = index < right.count ? right[index] : UInt8(ascii: "0")
            if l != r { return l < r ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }
}

extension ComparisonResult {
    fileprivate var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}
