/// A typed query on a model's properties, as `Results.where` hands it out: `$0.age > 3 &&
/// $0.dogs.count > 1`.
///
/// A `Query<T>` stands for a value of type `T` read from the objects being queried: a property
/// (`$0.name`), a link followed (`$0.bestFriend.name`), a count or an aggregate (`$0.dogs.count`,
/// `$0.dogs.age.avg`), or, when `T` is `Bool`, a condition. Members are the model's stored
/// properties, checked by the compiler; operators and methods build conditions. Nothing is read
/// while a query is built: it becomes a predicate in Kura's query language, the values it compares
/// bound as `$0`, `$1` …, and runs as the same SQL as that text would.
@dynamicMemberLookup
public struct Query<T>: Sendable {
    let text: PredicateText
    let shape: QueryShape
    /// How many `where` subqueries enclose this query: the next one's variable is `$x` and this number.
    let depth: Int
    /// Why the query cannot become a predicate, found while it was built (operators cannot throw).
    let failure: KuraError?

    init(text: PredicateText, shape: QueryShape, depth: Int, failure: KuraError? = nil) {
        self.text = text
        self.shape = shape
        self.depth = depth
        self.failure = failure
    }

    /// The query on the objects themselves, at the root of `where`'s closure or of a subquery.
    init(root variable: String?, depth: Int) {
        let path = QueryPath(variable: variable, components: [], collectionEnd: nil)
        self.init(text: PredicateText(path.rendered), shape: .path(path), depth: depth)
    }

    /// A query of another type built from this one, carrying its depth and any failure.
    func derived<U>(_ text: PredicateText, _ shape: QueryShape, failing failure: KuraError? = nil) -> Query<U> {
        Query<U>(text: text, shape: shape, depth: depth, failure: self.failure ?? failure)
    }

    /// This query followed by one more property, `name`, of what it reads.
    func member<U>(_ name: Result<String, KuraError>, throughCollection: Bool = false) -> Query<U> {
        guard case .path(var path) = shape else {
            return derived(text, shape, failing: KuraError.typedQuery("a property can only follow a property, a link or a list"))
        }
        switch name {
        case .failure(let error): return derived(text, shape, failing: error)
        case .success(let name):
            if throughCollection, path.collectionEnd == nil { path.collectionEnd = path.components.count }
            path.components.append(name)
            return derived(PredicateText(path.rendered), .path(path))
        }
    }

    /// The key path this query reads, or a failure naming what `operation` needs.
    func path(for operation: String) -> Result<QueryPath, KuraError> {
        if case .path(let path) = shape, !path.components.isEmpty { return .success(path) }
        return .failure(KuraError.typedQuery("\(operation) needs a property, as in $0.name"))
    }
}

extension Query where T: KuraObject {
    /// The predicate, in Kura's query language with its values as arguments, that `isIncluded`
    /// stands for: what `Results.where` runs, and what the service takes as `where` and `args`.
    public static func predicate(_ isIncluded: (Query<T>) -> Query<Bool>) throws(KuraError) -> QueryPredicate {
        try isIncluded(Query(root: nil, depth: 0)).predicate()
    }

    /// The property of the queried objects at `keyPath`: `$0.name`, `$0.bestFriend`, `$0.dogs`.
    public subscript<V>(dynamicMember keyPath: KeyPath<T, V>) -> Query<V> {
        member(KeyPathNames.propertyName(keyPath, of: T.self))
    }

    /// The objects of `Source` whose property at `keyPath` links here (`$0.linkingObjects(\Person.dogs)`):
    /// backlinks by the link's name, without a declared `linkingObjects` property.
    public func linkingObjects<Source: KuraObject, V>(_ keyPath: KeyPath<Source, V>) -> Query<[Source]> {
        member(KeyPathNames.propertyName(keyPath, of: Source.self).map { "@links.\(Source.typeName).\($0)" })
    }
}

extension Query where T: OptionalModel {
    /// The property at `keyPath` of the linked or embedded object; null when there is none.
    public subscript<V>(dynamicMember keyPath: KeyPath<T.Wrapped, V>) -> Query<V> {
        member(KeyPathNames.propertyName(keyPath, of: T.Wrapped.self))
    }
}

extension KuraError {
    /// A typed query that cannot become a predicate, for the reason `message` gives.
    static func typedQuery(_ message: String) -> KuraError {
        KuraError.query(.invalidKeyPath, "typed query: \(message)")
    }
}

/// An optional model (`Person?`), whose properties a typed query reaches through the link.
public protocol OptionalModel {
    /// The linked or embedded model type.
    associatedtype Wrapped: KuraObject
}

extension Optional: OptionalModel where Wrapped: KuraObject {}

/// How a typed query's text reads, for the operators that combine it.
enum QueryShape: Sendable {
    /// A key path, which more properties may follow.
    case path(QueryPath)
    /// A value that is not a key path: a count, an aggregate, a list position's value.
    case expression
    /// `SUBQUERY(…)`, which only `count` may follow.
    case subquery
    /// A condition; `precedence` says which operators it may sit beside without parentheses.
    case condition(ConditionPrecedence)
}

/// How tightly a condition's text binds: `NOT` over `AND` over `OR`.
enum ConditionPrecedence: Int, Sendable, Comparable {
    case or, and, atom

    static func < (lhs: ConditionPrecedence, rhs: ConditionPrecedence) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A key path as a typed query builds it: from the root (or a subquery's variable) through properties.
struct QueryPath: Sendable {
    /// The subquery variable the path starts at (`x0` for `$x0`), or `nil` at the root.
    var variable: String?
    /// Property names, `@` operations and subscripts, in order.
    var components: [String]
    /// How many components lead to the first list, set, map or backlinks on the way, if one is.
    var collectionEnd: Int?

    var rendered: String {
        let head = variable.map { ["$" + $0] } ?? []
        return (head + components).joined(separator: ".")
    }

    /// The path with `@name` after its first collection: `dogs.@avg.age` for `dogs.age`, or after
    /// the whole path (`scores.@avg`) when it is itself the collection.
    func aggregated(_ name: String) -> QueryPath {
        var copy = self
        let end = collectionEnd ?? components.count
        copy.components.insert("@" + name, at: end)
        return copy
    }
}
