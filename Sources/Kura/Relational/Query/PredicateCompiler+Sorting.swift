extension PredicateCompiler {
    /// The ORDER BY term of a sort key: a property, a `@count` or an aggregate, reached through
    /// to-one links only. Decimals and mixed values sort as `ValueOrder` orders them.
    func orderTerm(_ key: SortKey, source: KuraError.QueryPart = .sort) throws(KuraError) -> OrderTerm {
        do {
            return try unplacedOrderTerm(key, source: source)
        } catch {
            throw error.placed(in: source, column: key.keyPath.column)
        }
    }

    private func unplacedOrderTerm(_ key: SortKey, source: KuraError.QueryPart) throws(KuraError) -> OrderTerm {
        let path = try KeyPathResolver(catalog: catalog, source: source).resolve(key.keyPath, from: root)
        func refuse(_ message: String) -> KuraError {
            KuraError.query(.invalidKeyPath, message, in: source, column: key.keyPath.column)
        }
        let toMany = "\(path.subject) goes through a list, set, map or linkingObjects: a sort key may follow only to-one links"
        guard !path.isToMany else { throw refuse(toMany) }
        var noSubquery: Subquery?
        let position = try follow(path.hops, from: topContext.root, into: &noSubquery)
        let dialect = limits.dialect
        switch path.end {
        case .column(let name, let type):
            let alias = try scope.objectAlias(type: position.type, idExpression: position.id)
            let column = "\(alias).\(TableLayout.column(name))"
            if type == .mixed {
                let mixedKey = dialect.mixedSortValue(tag: "\(alias).\(TableLayout.tagColumn(name))", value: column)
                return OrderTerm(value: mixedKey, collation: MixedSortKey.collation, ascending: key.ascending, dialect: dialect)
            }
            return OrderTerm(
                value: column, collation: type == .decimal ? QueryFunctions.decimalCollation : nil, ascending: key.ascending,
                dialect: dialect)
        case .count(let countSource):
            try countSubqueryTable()
            return OrderTerm(value: Self.count(countSource, of: position.id, dialect), ascending: key.ascending, dialect: dialect)
        case .aggregate(let function, let aggregateSource, let result):
            try countSubqueryTable()
            return OrderTerm(
                value: aggregate(function, aggregateSource, of: position.id),
                collation: result == .decimal ? QueryFunctions.decimalCollation : nil, ascending: key.ascending, dialect: dialect)
        case .length(let name, _):
            let alias = try scope.objectAlias(type: position.type, idExpression: position.id)
            return OrderTerm(value: dialect.byteLength("\(alias).\(TableLayout.column(name))"), ascending: key.ascending, dialect: dialect)
        case .link(let name, _):
            throw refuse("\(path.subject) is a link: sort by one of its properties (such as \(name).name)")
        case .mapValue, .listItem, .typeOf:
            throw refuse("\(path.subject): a sort key is a property, a @count or an aggregate")
        case .elements:
            throw refuse(toMany)
        }
    }
}
