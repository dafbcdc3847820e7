import Foundation

/// PostgreSQL's spellings of what the predicate compiler writes, for realms laid out as
/// `PostgresLayout` says: texts are `bytea` (UTF-8), so string tests count bytes and literals are
/// bytes; a mixed value is `bytea` with numbers as decimal text, read back as `numeric`; decimals and
/// mixed values order through the functions `PostgresQueryFunctions` installs; truth values are
/// booleans, nulls are placed as SQLite places them, and parameters are numbered.
struct PostgresQueryDialect: QueryDialect {
    var alwaysTrue: String { "true" }
    var alwaysFalse: String { "false" }
    var isSame: String { " IS NOT DISTINCT FROM " }
    var isNotSame: String { " IS DISTINCT FROM " }

    /// Bytes: every stored string is its UTF-8 bytes, and a prefix of bytes is a prefix of characters.
    func length(of literal: StoredCell) -> Int {
        switch literal {
        case .text(let text): text.utf8.count
        case .blob(let bytes): bytes.count
        default: 0
        }
    }

    func startsWith(_ value: String, _ argument: SQLFragment, length: Int) -> SQLFragment {
        "substr(\(value), 1, \(length)) = " + argument
    }

    func endsWith(_ value: String, _ argument: SQLFragment, length: Int) -> SQLFragment {
        // A start before the first byte keeps the whole value, which is then too short to be equal.
        "substr(\(value), length(\(value)) - \(length - 1)) = " + argument
    }

    func contains(_ value: String, _ argument: SQLFragment) -> SQLFragment {
        "position(" + argument + " in \(value)) > 0"
    }

    func matches(_ value: String, _ pattern: SQLFragment) -> SQLFragment {
        "\(PostgresQueryFunctions.like)(\(value), " + pattern + ")"
    }

    /// `kura_like` reads Realm's pattern itself.
    func likePattern(_ pattern: String) -> String { pattern }

    func stringTest(_ op: ComparisonOperator, _ a: String, _ b: String) -> String {
        switch op {
        case .beginsWith: "substr(\(a), 1, length(\(b))) = \(b)"
        case .endsWith: "(length(\(b)) = 0 OR substr(\(a), length(\(a)) - length(\(b)) + 1) = \(b))"
        case .contains: "position(\(b) in \(a)) > 0"
        default: "\(PostgresQueryFunctions.like)(\(a), \(b))"
        }
    }

    /// PostgreSQL fails a division by zero, where SQLite gives null.
    func arithmetic(_ a: String, _ op: String, _ b: String) -> String {
        op == "/" ? "(\(a) / NULLIF(\(b), 0))" : "(\(a) \(op) \(b))"
    }

    func byteLength(_ value: String) -> String {
        "length(\(value))"
    }

    /// Decimals by `kura_decimal_key`, an array that orders as `ValueOrder` orders decimals;
    /// `kura_mixed_key` already returns a value that orders as mixed values do.
    func collated(_ expression: String, by collation: String) -> String {
        collation == QueryFunctions.decimalCollation ? "\(PostgresQueryFunctions.decimalKey)(\(expression))" : expression
    }

    func collatedArgument(_ argument: SQLFragment, by collation: String) -> SQLFragment {
        if collation == MixedSortKey.collation {
            // The key's text, bound as bytes as every text is.
            return "convert_from(" + argument + ", 'UTF8')::\(PostgresQueryFunctions.mixedOrderType)"
        }
        guard collation == QueryFunctions.decimalCollation else { return argument }
        return "\(PostgresQueryFunctions.decimalKey)(" + argument + ")"
    }

    func collatedList(_ list: SQLFragment, by collation: String) -> SQLFragment {
        guard collation == QueryFunctions.decimalCollation, list.sql.hasPrefix("("), list.sql.hasSuffix(")") else { return list }
        var array = list
        array.sql = "(SELECT \(PostgresQueryFunctions.decimalKey)(x) FROM unnest(ARRAY[" + list.sql.dropFirst().dropLast()
            + "]::bytea[]) AS x)"
        return array
    }

    func mixedSortValue(tag: String, value: String) -> String {
        "\(MixedSortKey.function)(\(tag), \(value))"
    }

    /// Numbers (and bools, dates, links) are decimal text in a mixed value's bytes: compared as numbers.
    func mixedReading(_ value: String, comparedWith literal: StoredCell) -> String {
        switch literal {
        case .integer, .real: "\(PostgresQueryFunctions.number)(\(value))"
        case .null, .text, .blob: value
        }
    }

    /// Ids in a mixed value's bytes are decimal text.
    func mixedLink(_ id: String) -> String {
        "convert_to((\(id))::text, 'UTF8')"
    }

    /// Both sides as mixed values are stored (a typed value as the bytes a mixed value would hold).
    func compare(
        _ left: (tag: String, value: String, type: PropertyType), _ right: (tag: String, value: String, type: PropertyType)
    ) -> String {
        "\(QueryFunctions.compare)(\(left.tag), \(Self.asMixed(left.value, left.type)), \(right.tag), \(Self.asMixed(right.value, right.type)))"
    }

    /// A typed value as a mixed value's bytes: numbers as their decimal text, texts as they are.
    private static func asMixed(_ value: String, _ type: PropertyType) -> String {
        switch PostgresLayout.sqlType(type) {
        case "bytea": value
        default: "convert_to((\(value))::text, 'UTF8')"
        }
    }

    func mixedAggregated(_ value: String, tag: String) -> String {
        let numbers = [MixedTag.int, MixedTag.float, MixedTag.double, MixedTag.decimal].map(String.init).joined(separator: ", ")
        return "CASE WHEN \(tag) IN (\(numbers)) THEN \(PostgresQueryFunctions.number)(\(value)) END"
    }

    /// Exact sums and means as `numeric`, written back as decimal text.
    func decimalAggregate(_ function: ResolvedKeyPath.Aggregate, _ argument: String) -> String {
        let number = "\(PostgresQueryFunctions.number)(\(argument))"
        let text = PostgresQueryFunctions.decimalText
        switch function {
        case .sum: return "\(text)(coalesce(sum(\(number)), 0))"
        case .avg: return "\(text)(avg(\(number)))"
        case .min, .max:
            // The first or last by key, as its own text.
            let direction = function == .min ? "" : " DESC"
            return "(array_agg(\(argument) ORDER BY \(PostgresQueryFunctions.decimalKey)(\(argument))\(direction)) "
                + "FILTER (WHERE \(argument) IS NOT NULL))[1]"
        }
    }

    /// The value itself (a decimal's bytes), or a mixed value's key as text, which the cursor's
    /// argument casts back.
    func pageValue(_ value: String, collation: String?) -> String {
        collation == MixedSortKey.collation ? "(\(value))::text" : value
    }

    func orderBy(_ expression: String, ascending: Bool) -> String {
        ascending ? expression + " NULLS FIRST" : expression + " DESC NULLS LAST"
    }

    var derivedTableAlias: String { " AS " + TableLayout.quote("#d") }

    /// Texts as bytes (as the realm stores them), bytes in hexadecimal, a double as its shortest text.
    func literal(_ value: StoredCell) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): "'\(PostgresCopyText.text(of: number))'::double precision"
        case .text(let text): "'\\x\(ValueText.hex(text.utf8))'::bytea"
        case .blob(let bytes): "'\\x\(ValueText.hex(bytes))'::bytea"
        }
    }

    /// Each `?` outside quoted names and literals becomes `$1`, `$2`, … in order.
    func statement(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "\"" || character == "'" {
                quote = character
                result.append(character)
            } else if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
