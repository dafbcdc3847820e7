/// Typed queries, sorting and distinct values on results of a model type.
extension Results where Element: KuraObject {
    /// The results that also meet `isIncluded`, a condition on the model's properties checked by
    /// the compiler: `where { $0.age > 3 && $0.dogs.count > 1 }`.
    ///
    /// The condition becomes the predicate `filter` would take (`age > $0 AND dogs.@count > $1`,
    /// its values bound as arguments) and runs as the same SQL. Throws `KuraError` when a key path
    /// is not a stored property (nor a `@Link` or `@Backlinks`), or the predicate does not fit the schema.
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) throws(KuraError) -> Results {
        let predicate = try Query<Element>.predicate(isIncluded)
        do {
            return try filter(predicate.text, arguments: predicate.arguments)
        } catch {
            // The column counts in the predicate the closure became; say which one.
            var located = error
            located.message += " (in the predicate `\(predicate.text)`)"
            throw located
        }
    }

    /// The results ordered by the property at `keyPath` (`\.name`, `\.bestFriend?.name`), ties in
    /// the order so far. Sorting again replaces the previous order, as in Realm.
    public func sorted<V>(by keyPath: KeyPath<Element, V>, ascending: Bool = true) throws(KuraError) -> Results {
        try sorted(by: [SortDescriptor(keyPath: try Self.keyPathText(keyPath), ascending: ascending)])
    }

    /// The first object, in the order so far, of each combination of values at `keyPaths`
    /// (`distinct(by: [\.name, \.age])`).
    public func distinct(by keyPaths: [PartialKeyPath<Element>]) throws(KuraError) -> Results {
        var names: [String] = []
        for keyPath in keyPaths { names.append(try Self.keyPathText(keyPath)) }
        return try distinct(by: names)
    }

    private static func keyPathText(_ keyPath: AnyKeyPath) throws(KuraError) -> String {
        try KeyPathNames.names(keyPath, of: Element.self).get().joined(separator: ".")
    }
}

extension Results {
    /// The first object, in the order so far, of each combination of values at `keyPaths`
    /// (`distinct(by: ["name", "owner.name"])`): `DISTINCT(…)` in a query's text.
    ///
    /// An order given by `sorted(by:)` before applies first; a later one orders what is kept.
    public func distinct(by keyPaths: [String]) throws(KuraError) -> Results {
        var paths: [PredicateKeyPath] = []
        for text in keyPaths {
            let key = try SortKey.parseOne(text)
            guard key.ascending else {
                throw KuraError.query(.syntax, "expected one key path, found '\(text)'", in: .sort, column: 1)
            }
            paths.append(key.keyPath)
        }
        guard !paths.isEmpty else { throw KuraError.query(.syntax, "distinct needs at least one key path", in: .sort, column: 1) }
        let steps = descriptors + (sortKeys.isEmpty ? [] : [.sort(sortKeys)]) + [.distinct(paths)]
        return try Results(realm: realm, type: typeName, predicates: predicates, descriptors: steps, sortKeys: [], load: load)
    }
}
