/// Lists, sets, backlinks and maps: counts, membership, aggregates, positions and subqueries.
extension Query {
    /// `@name` added where it applies: after the collection on the way (`dogs.@avg.age`) or at the end.
    func aggregate<U>(_ name: String, needsCollection: Bool) -> Query<U> {
        switch path(for: name) {
        case .failure(let error): return derived(text, .expression, failing: error)
        case .success(let path):
            if needsCollection, path.collectionEnd == nil {
                return derived(text, .expression, failing: KuraError.typedQuery("\(name) needs a list, set or backlinks on the way, as in $0.dogs.age.\(name)"))
            }
            return derived(PredicateText(path.aggregated(name).rendered), .expression)
        }
    }
}

/// A Swift collection a model stores as a list or a set (or reads as backlinks).
public protocol QueryCollection {
    /// The type of the elements.
    associatedtype Element
}

extension Array: QueryCollection {}
extension Set: QueryCollection {}

extension Query where T: QueryCollection {
    /// How many elements the collection holds (`@count`); a subquery's count of the elements it keeps.
    public var count: Query<Int> {
        if case .subquery = shape { return derived(text + ".@count", .expression) }
        return aggregate("count", needsCollection: false)
    }

    /// The element at `position` of a list, from 0; null past the end.
    public subscript(position: Int) -> Query<T.Element> {
        guard case .path(var path) = shape, let last = path.components.indices.last else {
            return derived(text, shape, failing: KuraError.typedQuery("a position follows a list property, as in $0.dogs[0]"))
        }
        path.components[last] += "[\(position)]"
        return derived(PredicateText(path.rendered), .path(path))
    }
}

extension Query where T: QueryCollection, T.Element: QueryValue {
    /// Whether `value` is one of the elements.
    public func contains(_ value: T.Element) -> Query<Bool> {
        condition { PredicateText(value: value.queryValue) + " IN " + $0 }
    }

    /// Whether any element is one of `values`.
    public func containsAny<S: Sequence>(in values: S) -> Query<Bool> where S.Element == T.Element {
        condition { "ANY " + $0 + " IN " + PredicateText(value: .list(values.map(\.queryValue))) }
    }
}

extension Query where T: QueryCollection, T.Element: QueryComparable {
    /// The sum of the numbers among the elements; 0 when there are none (`@sum`).
    public var sum: Query<T.Element> { aggregate("sum", needsCollection: false) }
    /// The mean of the numbers among the elements; null when there are none (`@avg`).
    public var avg: Query<Double?> { aggregate("avg", needsCollection: false) }
    /// The least element; null when there is none (`@min`).
    public var min: Query<T.Element> { aggregate("min", needsCollection: false) }
    /// The greatest element; null when there is none (`@max`).
    public var max: Query<T.Element> { aggregate("max", needsCollection: false) }
}

extension Query where T: QueryComparable {
    /// The sum of this property over the objects of the list, set or backlinks on its way
    /// (`$0.dogs.age.sum`, `dogs.@sum.age`); 0 when there are none.
    public var sum: Query<T> { aggregate("sum", needsCollection: true) }
    /// The mean of this property over the objects of the collection on its way; null when there are none.
    public var avg: Query<Double?> { aggregate("avg", needsCollection: true) }
    /// The least value of this property over the objects of the collection on its way.
    public var min: Query<T> { aggregate("min", needsCollection: true) }
    /// The greatest value of this property over the objects of the collection on its way.
    public var max: Query<T> { aggregate("max", needsCollection: true) }
}

extension Query where T: QueryCollection, T.Element: KuraObject {
    /// The property at `keyPath` of the collection's objects: a comparison with it holds when it
    /// holds for any of them (`$0.dogs.age > 3`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T.Element, V>) -> Query<V> {
        member(KeyPathNames.propertyName(keyPath, of: T.Element.self), throughCollection: true)
    }

    /// The collection's objects that meet `isIncluded` (`SUBQUERY`): count them with `.count`.
    public func `where`(_ isIncluded: (Query<T.Element>) -> Query<Bool>) -> Query<T> {
        let variable = "x\(depth)"
        let inner = isIncluded(Query<T.Element>(root: variable, depth: depth + 1))
        switch path(for: "where") {
        case .failure(let error): return derived(text, .subquery, failing: error)
        case .success(let path):
            let text = "SUBQUERY(" + PredicateText(path.rendered) + ", $\(variable), " + inner.condition.text + ")"
            return derived(text, .subquery, failing: inner.failure)
        }
    }
}

/// A Swift dictionary with string keys, which a model stores as a map.
public protocol QueryMap {
    /// The type of the values.
    associatedtype MapValue
}

extension Dictionary: QueryMap where Key == String {
    public typealias MapValue = Value
}

extension Query where T: QueryMap {
    /// The value under `key`; null when the map has no such key.
    public subscript(key: String) -> Query<T.MapValue?> {
        guard case .path(let path) = shape, !path.components.isEmpty else {
            return derived(text, shape, failing: KuraError.typedQuery("a key follows a map property, as in $0.nick[\"a\"]"))
        }
        return derived(text + "[" + PredicateText(value: .string(key)) + "]", .expression)
    }

    /// The map's keys: a comparison with them holds when it holds for any key (`@keys`).
    public var keys: Query<String> { member(.success("@keys"), throughCollection: true) }

    /// The map's values: a comparison with them holds when it holds for any value (`@values`).
    public var values: Query<T.MapValue> { member(.success("@values"), throughCollection: true) }

    /// How many entries the map holds (`@count`).
    public var count: Query<Int> { aggregate("count", needsCollection: false) }
}
