/// A predicate and what may follow it in the text: `SORT(…)`, `DISTINCT(…)` and `LIMIT(…)`,
/// applied in the order written.
struct ParsedQuery: Equatable, Sendable {
    var predicate: ParsedPredicate
    var descriptors: [QueryDescriptor]
}

/// One step after the predicate, as Realm applies it to the objects so far.
enum QueryDescriptor: Equatable, Sendable {
    /// `SORT(name ASC, age DESC)`: a new order, ties kept in the order so far.
    case sort([SortKey])
    /// `DISTINCT(name, owner.name)`: the first object of each combination of values, in the order so far.
    case distinct([PredicateKeyPath])
    /// `LIMIT(10)`: the first objects, in the order so far.
    case limit(Int, column: Int)
}
