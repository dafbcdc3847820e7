import Foundation

/// The SQL functions and collations compiled queries use, which every engine installs on its connections.
enum QueryFunctions {
    /// `kura_fold(text)`: the text case-folded as `[c]` compares it (Unicode lowercase, unlike SQLite's
    /// ASCII-only `lower()` and `NOCASE`).
    static let fold = "kura_fold"
    /// `kura_fold_d(text)`: the text without diacritics, as `[d]` compares it (`é` is `e`).
    static let foldDiacritics = "kura_fold_d"
    /// `kura_fold_cd(text)`: both, as `[cd]` compares it.
    static let foldBoth = "kura_fold_cd"
    /// `kura_compare(tag, value, tag, value)`: two values as `ValueOrder` compares them: -1, 0 or 1,
    /// or 2 when they are unequal and unordered (kinds that do not compare, or null against a value).
    static let compare = "kura_compare"
    /// `kura_decimal_sum(decimal)`: the exact sum of decimal strings (0 for none), as `@sum` gives it.
    static let decimalSum = "kura_decimal_sum"
    /// `kura_decimal_avg(decimal)`: their mean (null for none), as `@avg` gives it.
    static let decimalAverage = "kura_decimal_avg"
    /// `kura_real(bits)`: the double whose IEEE 754 bits are the integer, for doubles written in SQL.
    static let realFromBits = "kura_real"
    /// `kura_like_glob(pattern)`: a LIKE pattern as a GLOB pattern, for patterns read from a property.
    static let likeGlob = "kura_like_glob"

    /// The SQL function that folds text as `options` compare it, or nil when they compare it as it is.
    static func foldFunction(_ options: StringOptions) -> String? {
        switch (options.caseInsensitive, options.diacriticInsensitive) {
        case (true, true): foldBoth
        case (true, false): fold
        case (false, true): foldDiacritics
        case (false, false): nil
        }
    }
    /// `COLLATE kura_decimal`: orders decimal strings by value, so `1.5` equals `1.50`, `9` sorts
    /// before `10` and NaN before every number.
    static let decimalCollation = "kura_decimal"

    /// Orders decimal strings by value as `ValueOrder` does (NaN first and equal to itself, so that
    /// `> 1` never matches NaN, as in Realm); text that is not a decimal last, by its bytes.
    static func compareDecimals(_ lhs: String, _ rhs: String) -> ComparisonResult {
        switch (Decimal128(lhs), Decimal128(rhs)) {
        case (let left?, let right?): return ValueOrder.compare(left, right)
        case (nil, nil): return lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
        case (nil, _): return .orderedDescending
        case (_, nil): return .orderedAscending
        }
    }
}
