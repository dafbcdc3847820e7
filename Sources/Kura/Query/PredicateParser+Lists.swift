import Foundation

/// Comparisons as written turned into the forms the compiler takes: a value written first moved
/// right, `x IN collection` as `ANY collection == x`, and lists of values on either side.
extension PredicateParser {
    /// `comparison` normalized; `listQuantifier` is the `ANY`, `ALL` or `NONE` written before a
    /// list on the right. A list on the left becomes one comparison per value, joined as its
    /// quantifier says (`ALL {1, 2} IN tags` holds when `1 IN tags AND 2 IN tags`); two lists
    /// compare as a constant.
    static func normalized(_ written: PredicateComparison, listQuantifier: PredicateQuantifier?) throws(KuraError) -> ParsedPredicate {
        var comparison = written
        if case .list = comparison.right {
            if comparison.op == .between {
                if let listQuantifier { throw syntax("BETWEEN takes its two values without \(listQuantifier.word)", listQuantifier.column) }
            } else if comparison.op == .in && (listQuantifier?.kind ?? .any) == .any {
                // `IN {…}` and `IN ANY {…}` keep the one list test of IN.
            } else {
                if comparison.op == .in { comparison.op = .equal }
                comparison.listQuantifier = listQuantifier?.kind ?? .any
            }
        } else if let listQuantifier {
            throw syntax("\(listQuantifier.word) after an operator needs a list of values in braces, such as {1, 2}", listQuantifier.column)
        }
        guard case .list(let values, let column) = comparison.left else { return .comparison(try normalized(comparison)) }
        if comparison.op == .between { throw syntax("BETWEEN needs a key path on its left", column) }
        let kind = comparison.quantifier?.kind ?? .any
        var terms: [ParsedPredicate] = []
        for value in values {
            var single = comparison
            single.quantifier = nil
            single.left = .literal(value)
            if case .list(let rights, _) = comparison.right {
                if single.op == .like { throw syntax("LIKE compares a key path with a pattern, not two values", comparison.column) }
                terms.append(.constant(constantTest(value, single.op, comparison.listQuantifier ?? .any, rights, options: single.options)))
            } else {
                terms.append(.comparison(try normalized(single)))
            }
        }
        let joined: ParsedPredicate = terms.count == 1 ? terms[0] : (kind == .all ? .and(terms) : .or(terms))
        switch kind {
        case .any: return terms.isEmpty ? .constant(false) : joined
        case .all: return terms.isEmpty ? .constant(true) : joined
        case .none: return terms.isEmpty ? .constant(true) : .not(joined)
        }
    }

    /// Whether `value op` holds for any, every or none of `values`: both sides written in the predicate.
    private static func constantTest(
        _ value: PredicateLiteral, _ op: ComparisonOperator, _ kind: PredicateQuantifier.Kind, _ values: [PredicateLiteral],
        options: StringOptions
    ) -> Bool {
        let found = values.lazy.map { compare(value.value, op, $0.value, options: options) }
        switch kind {
        case .any: return found.contains(true)
        case .all: return !found.contains(false)
        case .none: return !found.contains(true)
        }
    }

    /// `left op right` for two values written in the predicate: numbers by value, text by its
    /// characters (folded as `[c]` and `[d]` say), other kinds equal only to themselves.
    private static func compare(_ left: PredicateLiteral.Value, _ op: ComparisonOperator, _ right: PredicateLiteral.Value, options: StringOptions) -> Bool {
        let order: ComparisonResult?
        switch (left, right) {
        case (.number(let a), .number(let b)):
            guard let x = Double(a), let y = Double(b) else { return false }
            order = x < y ? .orderedAscending : (x > y ? .orderedDescending : (x == y ? .orderedSame : nil))
        case (.string(let a), .string(let b)):
            let (x, y) = (folded(a, options), folded(b, options))
            switch op {
            case .beginsWith: return x.hasPrefix(y)
            case .endsWith: return x.hasSuffix(y)
            case .contains: return y.isEmpty || x.contains(y)
            default: order = x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars) ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
            }
        case (.date(let a), .date(let b)):
            order = a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        default:
            order = left == right ? .orderedSame : nil
        }
        switch op {
        case .equal, .in: return order == .orderedSame
        case .notEqual: return order != .orderedSame
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order == .orderedAscending || order == .orderedSame
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order == .orderedDescending || order == .orderedSame
        case .beginsWith, .endsWith, .contains, .like, .between: return false
        }
    }

    private static func folded(_ text: String, _ options: StringOptions) -> String {
        var folding: String.CompareOptions = []
        if options.caseInsensitive { folding.insert(.caseInsensitive) }
        if options.diacriticInsensitive { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    /// The comparison with a value written first moved right (`3 < age` is `age > 3`), and `x IN
    /// collection` as `ANY collection == x`.
    private static func normalized(_ written: PredicateComparison) throws(KuraError) -> PredicateComparison {
        var comparison = written
        let op = comparison.op
        if op == .between {
            guard case .list = comparison.right else {
                throw syntax("BETWEEN needs two values in braces, such as {1, 5}", comparison.right.column)
            }
        }
        if op == .in {
            switch comparison.right {
            case .list: return comparison
            case .literal, .arithmetic:
                throw syntax("IN needs a list of values in braces, such as {1, 2}, or a list, set or map on its right", comparison.right.column)
            case .keyPath, .subquery:
                if let quantifier = comparison.quantifier {
                    throw syntax("\(quantifier.word) cannot stand before a value IN a collection: write ANY, ALL or NONE before the collection instead", quantifier.column)
                }
                comparison.quantifier = PredicateQuantifier(kind: .any, word: "IN", column: comparison.column)
                comparison.op = .equal
                swap(&comparison.left, &comparison.right)
                return comparison
            }
        }
        guard comparison.left.isConstant else { return comparison }
        if comparison.right.isConstant {
            throw syntax("both sides of \(op.spelling) are values: compare a key path with a value, or two key paths", comparison.column)
        }
        guard let swapped = op.swapped else {
            throw syntax("a value cannot come before \(op.spelling): write the key path first", comparison.column)
        }
        comparison.op = swapped
        swap(&comparison.left, &comparison.right)
        return comparison
    }
}
