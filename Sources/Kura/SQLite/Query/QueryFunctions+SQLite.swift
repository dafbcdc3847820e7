import Foundation
import GRDB

extension QueryFunctions {
    /// Adds the function and collation to a connection.
    static func install(in db: Database) {
        FoldFunctions.install(in: db)
        db.add(function: DatabaseFunction(compare, argumentCount: 4, pure: true) { arguments in
            StoredComparison.compare(
                tag: StoredCell(arguments[0]), StoredCell(arguments[1]), tag: StoredCell(arguments[2]), StoredCell(arguments[3]))
        })
        db.add(function: DatabaseFunction(realFromBits, argumentCount: 1, pure: true) { arguments in
            guard case .int64(let bits) = arguments[0].storage else { return nil }
            return Double(bitPattern: UInt64(bitPattern: bits))
        })
        db.add(function: DatabaseFunction(likeGlob, argumentCount: 1, pure: true) { arguments in
            guard case .string(let pattern) = arguments[0].storage else { return arguments[0] }
            return ComparisonTest.globPattern(fromLike: pattern)
        })
        db.add(function: DatabaseFunction(decimalSum, argumentCount: 1, pure: true, aggregate: DecimalSumAggregate.self))
        db.add(function: DatabaseFunction(decimalAverage, argumentCount: 1, pure: true, aggregate: DecimalAverageAggregate.self))
        db.add(collation: DatabaseCollation(decimalCollation) { lhs, rhs in compareDecimals(lhs, rhs) })
        db.add(function: DatabaseFunction(MixedSortKey.function, argumentCount: 2, pure: true) { arguments in
            MixedSortKey.key(tag: Int64.fromDatabaseValue(arguments[0]) ?? MixedTag.null, value: StoredCell(arguments[1]))
        })
        db.add(collation: DatabaseCollation(MixedSortKey.collation) { lhs, rhs in MixedSortKey.compare(lhs, rhs) })
    }
}

/// `kura_decimal_sum`: the exact sum of the decimal strings it is given.
private struct DecimalSumAggregate: DatabaseAggregate {
    var sum = DecimalSum()

    mutating func step(_ values: [DatabaseValue]) {
        if case .string(let text) = values[0].storage, let number = Decimal128(text) { sum.add(number) }
    }

    func finalize() -> (any DatabaseValueConvertible)? { sum.total.description }
}

/// `kura_decimal_avg`: the mean of the decimal strings it is given, or null for none.
private struct DecimalAverageAggregate: DatabaseAggregate {
    var sum = DecimalSum()

    mutating func step(_ values: [DatabaseValue]) {
        if case .string(let text) = values[0].storage, let number = Decimal128(text) { sum.add(number) }
    }

    func finalize() -> (any DatabaseValueConvertible)? { sum.average?.description }
}
