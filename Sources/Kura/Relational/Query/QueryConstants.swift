
/// How one query writes the values its comparisons compare with, and how many it binds.
///
/// SQLite computes each constant of a statement once, before the first row, and while compiling
/// looks for an equal one among the constants it set aside before: a search through all of them,
/// so that a statement with n constants takes time in n² to compile. The first `plainValues`
/// values of a query are plain parameters; later ones are one-row subqueries, `(SELECT ?)`, which
/// SQLite also computes once, without that search. A list of three values or more is never
/// searched (SQLite builds a lookup table from it), so its values stay plain however many there are.
///
/// Values written `inline` are SQL literals instead (a SUBQUERY's condition, which stands inside
/// the value it counts, where bound parameters would fall out of their order).
final class QueryConstants {
    /// The values written as plain parameters, outside lists.
    static let plainValues = 256
    /// Values bound in all.
    private(set) var bound = 0
    private var plain = 0
    /// Whether values are written as literals rather than bound.
    let inline: Bool
    /// How the engine writes literals.
    let dialect: any QueryDialect

    init(dialect: any QueryDialect, inline: Bool = false) {
        self.dialect = dialect
        self.inline = inline
    }

    /// `?` bound to `value`, or `(SELECT ?)` past the first `plainValues`.
    func value(_ value: StoredCell) -> SQLFragment {
        if inline { return SQLFragment(dialect.literal(value)) }
        bound += 1
        guard plain >= Self.plainValues else {
            plain += 1
            return SQLFragment("?", [value])
        }
        return SQLFragment("(SELECT ?)", [value], parserDepth: PredicateCompiler.subqueryDepth, height: 3)
    }

    /// `(?, ?, ?)`: the values of an `IN` list.
    func list(_ values: [StoredCell]) -> SQLFragment {
        if inline { return SQLFragment("(" + values.map(dialect.literal).joined(separator: ", ") + ")") }
        guard values.count < 3 else {
            bound += values.count
            return SQLFragment("(" + Array(repeating: "?", count: values.count).joined(separator: ", ") + ")", values)
        }
        var list = SQLFragment("(")
        for (offset, item) in values.enumerated() {
            if offset > 0 { list.append(", ") }
            list.append(value(item))
        }
        list.append(")")
        return list
    }

    /// An integer Kura writes itself (a kind of mixed value), as a literal: `3`, or `(SELECT 3)`
    /// past the first `plainValues` values. It binds nothing.
    func integer(_ number: Int64) -> SQLFragment {
        guard plain >= Self.plainValues else {
            plain += 1
            return SQLFragment(String(number))
        }
        return SQLFragment("(SELECT \(number))", parserDepth: PredicateCompiler.subqueryDepth, height: 3)
    }

    /// `(3, 5)`: integers Kura writes itself, for an `IN` list.
    func integers(_ numbers: [Int64]) -> SQLFragment {
        guard numbers.count < 3 else { return SQLFragment("(" + numbers.map(String.init).joined(separator: ", ") + ")") }
        var list = SQLFragment("(")
        for (offset, number) in numbers.enumerated() {
            if offset > 0 { list.append(", ") }
            list.append(integer(number))
        }
        list.append(")")
        return list
    }
}

