/// Comparisons: a property with a value (bound as an argument), or with another property.
extension Query {
    /// The text of this query as one side of a comparison, or a failure when it is a condition, a
    /// subquery or the queried objects themselves.
    var operand: Result<PredicateText, KuraError> {
        switch shape {
        case .path(let path) where path.components.isEmpty:
            .failure(KuraError.typedQuery("compare a property of the objects, as in $0.name, not the objects themselves"))
        case .path, .expression: .success(text)
        case .subquery: .failure(KuraError.typedQuery("a subquery can only be counted: where { … }.count"))
        case .condition: .failure(KuraError.typedQuery("a condition is not a value to compare"))
        }
    }

    /// A condition on this query's text as an operand, written by `condition`.
    func condition(failing otherFailure: KuraError? = nil, _ condition: (PredicateText) -> PredicateText) -> Query<Bool> {
        switch operand {
        case .failure(let error): derived(text, .condition(.atom), failing: error)
        case .success(let operand): derived(condition(operand), .condition(.atom), failing: otherFailure)
        }
    }

    /// `self op right`, a condition.
    func comparison(_ op: String, _ right: PredicateText, failing rightFailure: KuraError? = nil) -> Query<Bool> {
        condition(failing: rightFailure) { $0 + " \(op) " + right }
    }

    /// `self op other`, a condition between two key paths or counts.
    func comparison<U>(_ op: String, _ other: Query<U>) -> Query<Bool> {
        switch other.operand {
        case .success(let right): comparison(op, right, failing: other.failure)
        case .failure(let error): comparison(op, other.text, failing: other.failure ?? error)
        }
    }
}

extension Query where T: QueryValue {
    /// Whether the property equals `value` (`nil` for null).
    public static func == (lhs: Query, rhs: T) -> Query<Bool> {
        lhs.comparison("==", PredicateText(value: rhs.queryValue))
    }

    /// Whether the property differs from `value`; a null property differs from every value but null.
    public static func != (lhs: Query, rhs: T) -> Query<Bool> {
        lhs.comparison("!=", PredicateText(value: rhs.queryValue))
    }

    /// Whether two properties hold equal values; a null link reads as null.
    public static func == (lhs: Query, rhs: Query) -> Query<Bool> {
        lhs.comparison("==", rhs)
    }

    /// Whether two properties hold different values.
    public static func != (lhs: Query, rhs: Query) -> Query<Bool> {
        lhs.comparison("!=", rhs)
    }

    /// Whether the property equals one of `values` (`IN`).
    public func `in`<S: Sequence>(_ values: S) -> Query<Bool> where S.Element == T {
        comparison("IN", PredicateText(value: .list(values.map(\.queryValue))))
    }
}

extension Query where T: QueryComparable {
    /// Whether the property is less than `value`.
    public static func < (lhs: Query, rhs: T) -> Query<Bool> { lhs.comparison("<", PredicateText(value: rhs.queryValue)) }
    /// Whether the property is at most `value`.
    public static func <= (lhs: Query, rhs: T) -> Query<Bool> { lhs.comparison("<=", PredicateText(value: rhs.queryValue)) }
    /// Whether the property is greater than `value`.
    public static func > (lhs: Query, rhs: T) -> Query<Bool> { lhs.comparison(">", PredicateText(value: rhs.queryValue)) }
    /// Whether the property is at least `value`.
    public static func >= (lhs: Query, rhs: T) -> Query<Bool> { lhs.comparison(">=", PredicateText(value: rhs.queryValue)) }
    /// Whether one property is less than another.
    public static func < (lhs: Query, rhs: Query) -> Query<Bool> { lhs.comparison("<", rhs) }
    /// Whether one property is at most another.
    public static func <= (lhs: Query, rhs: Query) -> Query<Bool> { lhs.comparison("<=", rhs) }
    /// Whether one property is greater than another.
    public static func > (lhs: Query, rhs: Query) -> Query<Bool> { lhs.comparison(">", rhs) }
    /// Whether one property is at least another.
    public static func >= (lhs: Query, rhs: Query) -> Query<Bool> { lhs.comparison(">=", rhs) }

    /// Whether the property lies in `range`, both ends included (`BETWEEN`).
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> where T: Comparable {
        comparison("BETWEEN", PredicateText(value: .list([range.lowerBound.queryValue, range.upperBound.queryValue])))
    }
}

extension Query where T: OptionalModel {
    /// Whether the link is null (`bestFriend == nil`): the only value a link is compared with.
    public static func == (lhs: Query, rhs: QueryNull) -> Query<Bool> {
        lhs.comparison("==", PredicateText("nil"))
    }

    /// Whether the link is set.
    public static func != (lhs: Query, rhs: QueryNull) -> Query<Bool> {
        lhs.comparison("!=", PredicateText("nil"))
    }
}

/// `nil`, as a typed query compares a link with it.
public struct QueryNull: ExpressibleByNilLiteral, Sendable {
    public init(nilLiteral: ()) {}
}
