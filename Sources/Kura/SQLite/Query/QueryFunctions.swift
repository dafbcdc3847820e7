import Foundation
import GRDB

/// The SQL functions and collations compiled queries use, installed on every connection of a realm.
enum QueryFunctions {
    /// `kura_fold(text)`: the text case-folded as `[c]` compares it (Unicode lowercase, unlike SQLite's
    /// ASCII-only `lower()` and `NOCASE`).
    static let fold = "kura_fold"
    /// `COLLATE kura_decimal`: orders decimal strings by value, so `1.5` equals `1.50`, `9` sorts
    /// before `10` and NaN before every number.
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
        MixedSortKey.install(in: db)
    }

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
