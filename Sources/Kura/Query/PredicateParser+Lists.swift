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

    /// `left op right` for two values written in the predicate, as Realm compares stored values
    /// (`ValueOrder`): numbers by value, text by its bytes after `[c]` and `[d]` fold it.
    private static func compare(_ left: PredicateLiteral.Value, _ op: ComparisonOperator, _ right: PredicateLiteral.Value, options: StringOptions) -> Bool {
        let (a, b) = (value(left, options), value(right, options))
        if case .string(let text) = a, case .string(let part) = b {
            let (bytes, partBytes) = (Array(text.utf8), Array(part.utf8))
            switch op {
            case .beginsWith: return bytes.starts(with: partBytes)
            case .endsWith: return bytes.reversed().starts(with: partBytes.reversed())
            case .contains: return partBytes.isEmpty || bytes.firstRange(of: partBytes) != nil
            default: break
            }
        }
        let order = ValueOrder.compare(a, b)
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

    /// A literal as the value it stands for: a number as an int when it is one, text folded by `options`.
    private static func value(_ literal: PredicateLiteral.Value, _ options: StringOptions) -> Value {
        switch literal {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let text): Int64(text).map(Value.int) ?? Double(text).map(Value.double) ?? .null
        case .string(let text): .string(options.fold(text))
        case .date(let millis): .date(Date(timeIntervalSince1970: Double(millis) / 1000))
        case .objectId(let id): .objectId(id)
        case .uuid(let id): .uuid(id)
        }
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
