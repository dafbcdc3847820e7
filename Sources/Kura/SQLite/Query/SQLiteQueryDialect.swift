/// SQLite's spellings of what the predicate compiler writes: truth values are integers, `IS`
/// compares nulls, strings are TEXT counted in characters, decimals and mixed values order through
/// the collations `QueryFunctions.install(in:)` adds, and parameters are `?`.
struct SQLiteQueryDialect: QueryDialect {
    var alwaysTrue: String { "1" }
    var alwaysFalse: String { "0" }
    var isSame: String { " IS " }
    var isNotSame: String { " IS NOT " }

    /// Characters (Unicode scalars) for text, which `substr` counts; bytes for data.
    func length(of literal: StoredCell) -> Int {
        switch literal {
        case .text(let text): text.unicodeScalars.count
        case .blob(let bytes): bytes.count
        default: 0
        }
    }

    func startsWith(_ value: String, _ argument: SQLFragment, length: Int) -> SQLFragment {
        "substr(\(value), 1, \(length)) = " + argument
    }

    func endsWith(_ value: String, _ argument: SQLFragment, length: Int) -> SQLFragment {
        "substr(\(value), -\(length)) = " + argument
    }

    func contains(_ value: String, _ argument: SQLFragment) -> SQLFragment {
        // instr's result as the truth value: a `> 0` would be one more constant for SQLite to search.
        "instr(\(value), " + argument + ")"
    }

    func matches(_ value: String, _ pattern: SQLFragment) -> SQLFragment {
        "\(value) GLOB " + pattern
    }

    func likePattern(_ pattern: String) -> String {
        ComparisonTest.globPattern(fromLike: pattern)
    }

    func stringTest(_ op: ComparisonOperator, _ a: String, _ b: String) -> String {
        switch op {
        case .beginsWith: "substr(\(a), 1, length(\(b))) = \(b)"
        case .endsWith: "(length(\(b)) = 0 OR substr(\(a), -length(\(b))) = \(b))"
        case .contains: "instr(\(a), \(b)) > 0"
        default: "\(a) GLOB \(QueryFunctions.likeGlob)(\(b))"
        }
    }

    /// SQLite's division by zero is null already.
    func arithmetic(_ a: String, _ op: String, _ b: String) -> String {
        "(\(a) \(op) \(b))"
    }

    func byteLength(_ value: String) -> String {
        "length(CAST(\(value) AS BLOB))"
    }

    func collated(_ expression: String, by collation: String) -> String {
        expression + " COLLATE " + collation
    }

    /// A collation applies to both sides of a comparison: the argument stays as it is.
    func collatedArgument(_ argument: SQLFragment, by collation: String) -> SQLFragment {
        argument
    }

    func collatedList(_ list: SQLFragment, by collation: String) -> SQLFragment {
        list
    }

    func mixedSortValue(tag: String, value: String) -> String {
        "\(MixedSortKey.function)(\(tag), \(value))"
    }

    /// SQLite keeps each mixed value in its own storage class: read as it is.
    func mixedReading(_ value: String, comparedWith literal: StoredCell) -> String {
        value
    }

    func mixedLink(_ id: String) -> String { id }

    func compare(
        _ left: (tag: String, value: String, type: PropertyType), _ right: (tag: String, value: String, type: PropertyType)
    ) -> String {
        "\(QueryFunctions.compare)(\(left.tag), \(left.value), \(right.tag), \(right.value))"
    }

    func mixedAggregated(_ value: String, tag: String) -> String {
        let numbers = [MixedTag.int, MixedTag.float, MixedTag.double].map(String.init).joined(separator: ", ")
        return "CASE WHEN \(tag) IN (\(numbers)) THEN \(value) WHEN \(tag) = \(MixedTag.decimal) THEN CAST(\(value) AS REAL) END"
    }

    func decimalAggregate(_ function: ResolvedKeyPath.Aggregate, _ argument: String) -> String {
        switch function {
        case .sum: "\(QueryFunctions.decimalSum)(\(argument))"
        case .avg: "\(QueryFunctions.decimalAverage)(\(argument))"
        case .min, .max: "\(function.rawValue)(\(argument) COLLATE \(QueryFunctions.decimalCollation))"
        }
    }

    /// The value with its collation, which leaves it as it is.
    func pageValue(_ value: String, collation: String?) -> String {
        collation.map { collated(value, by: $0) } ?? value
    }

    /// SQLite puts nulls first ascending and last descending by itself.
    func orderBy(_ expression: String, ascending: Bool) -> String {
        ascending ? expression : expression + " DESC"
    }

    var derivedTableAlias: String { "" }

    /// Text and blobs in hexadecimal (so that nothing in them is read as SQL), a double by its bits.
    func literal(_ value: StoredCell) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): "\(QueryFunctions.realFromBits)(\(Int64(bitPattern: number.bitPattern)))"
        case .text(let text): "CAST(X'\(ValueText.hex(text.utf8))' AS TEXT)"
        case .blob(let bytes): "X'\(ValueText.hex(bytes))'"
        }
    }

    func statement(_ sql: String) -> String { sql }
}
