/// Text operators and the logic that joins conditions.
extension Query where T: QueryString {
    /// Whether the text contains `text` (`CONTAINS`).
    public func contains(_ text: String, options: StringComparisonOptions = []) -> Query<Bool> {
        comparison("CONTAINS" + options.modifier, PredicateText(value: .string(text)))
    }

    /// Whether the text starts with `prefix` (`BEGINSWITH`).
    public func starts(with prefix: String, options: StringComparisonOptions = []) -> Query<Bool> {
        comparison("BEGINSWITH" + options.modifier, PredicateText(value: .string(prefix)))
    }

    /// Whether the text ends with `suffix` (`ENDSWITH`).
    public func ends(with suffix: String, options: StringComparisonOptions = []) -> Query<Bool> {
        comparison("ENDSWITH" + options.modifier, PredicateText(value: .string(suffix)))
    }

    /// Whether the text equals `text`, ignoring what `options` say (`==[c]`).
    public func equals(_ text: String, options: StringComparisonOptions = []) -> Query<Bool> {
        comparison("==" + options.modifier, PredicateText(value: .string(text)))
    }

    /// Whether the text differs from `text`, ignoring what `options` say (`!=[c]`).
    public func notEquals(_ text: String, options: StringComparisonOptions = []) -> Query<Bool> {
        comparison("!=" + options.modifier, PredicateText(value: .string(text)))
    }

    /// Whether the text matches `pattern`, `*` for any run of characters and `?` for one (`LIKE`).
    public func like(_ pattern: String, caseInsensitive: Bool = false) -> Query<Bool> {
        comparison(caseInsensitive ? "LIKE[c]" : "LIKE", PredicateText(value: .string(pattern)))
    }
}

extension Query where T == Bool {
    /// Whether both conditions hold.
    public static func && (lhs: Query, rhs: Query) -> Query {
        let (left, right) = (lhs.condition, rhs.condition)
        return Query(
            text: left.text(wrappedBelow: .and) + " AND " + right.text(wrappedBelow: .and), shape: .condition(.and),
            depth: lhs.depth, failure: lhs.failure ?? rhs.failure)
    }

    /// Whether either condition holds.
    public static func || (lhs: Query, rhs: Query) -> Query {
        let (left, right) = (lhs.condition, rhs.condition)
        return Query(
            text: left.text + " OR " + right.text, shape: .condition(.or), depth: lhs.depth, failure: lhs.failure ?? rhs.failure)
    }

    /// Whether the condition does not hold.
    public static prefix func ! (operand: Query) -> Query {
        Query(text: "NOT " + operand.condition.text(wrappedBelow: .atom), shape: .condition(.atom), depth: operand.depth, failure: operand.failure)
    }

    /// The condition as Kura's query language writes it, with its values as arguments: the
    /// predicate `Results.where` runs.
    public func predicate() throws(KuraError) -> QueryPredicate {
        if let failure { throw failure }
        return condition.text.rendered()
    }

    /// This query as a condition: a bool property stands for `property == true`.
    var condition: QueryCondition {
        switch shape {
        case .condition(let precedence): QueryCondition(text: text, precedence: precedence)
        default: QueryCondition(text: text + " == true", precedence: .atom)
        }
    }
}

/// A condition's text and how tightly it binds.
struct QueryCondition {
    var text: PredicateText
    var precedence: ConditionPrecedence

    /// The text, in parentheses when it binds more loosely than `precedence`.
    func text(wrappedBelow precedence: ConditionPrecedence) -> PredicateText {
        self.precedence < precedence ? "(" + text + ")" : text
    }
}
