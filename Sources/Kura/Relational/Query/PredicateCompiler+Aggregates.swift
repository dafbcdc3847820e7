extension PredicateCompiler {
    /// `@sum`, `@avg`, `@min` or `@max` of the values `source` reads for the object whose id is `id`,
    /// as one scalar subquery: `@sum` of nothing is 0, the others null, as in Realm.
    func aggregate(_ function: ResolvedKeyPath.Aggregate, _ source: ResolvedKeyPath.AggregateSource, of id: String) -> String {
        switch source {
        case .values(let owner, let property, let element):
            let alias = names.make()
            let argument = aggregated("\(alias).\(TableLayout.valueColumn)", tag: "\(alias).\(TableLayout.tagColumn)", element)
            return "(SELECT \(call(function, argument, element)) FROM \(TableLayout.collectionTable(owner, property)) AS \(alias) "
                + "WHERE \(alias).\(TableLayout.ownerColumn) = \(id))"
        case .objects(let hop, let property, let type):
            let object = names.make()
            let argument = aggregated(
                "\(object).\(TableLayout.column(property))", tag: "\(object).\(TableLayout.tagColumn(property))", type)
            let rows: String
            switch hop {
            case .collection(let owner, let collection, let target):
                let entry = names.make()
                rows = "FROM \(TableLayout.collectionTable(owner, collection)) AS \(entry) JOIN \(TableLayout.objectTable(target)) AS \(object) "
                    + "ON \(object).\(TableLayout.idColumn) = \(entry).\(TableLayout.valueColumn) WHERE \(entry).\(TableLayout.ownerColumn) = \(id)"
            case .backlink(let link) where link.originIsCollection:
                rows = "FROM \(TableLayout.objectTable(link.source)) AS \(object) WHERE \(object).\(TableLayout.idColumn) IN "
                    + "(SELECT \(TableLayout.ownerColumn) FROM \(TableLayout.collectionTable(link.source, link.property)) "
                    + "WHERE \(TableLayout.valueColumn) = \(id))"
            case .backlink(let link):
                rows = "FROM \(TableLayout.objectTable(link.source)) AS \(object) WHERE \(object).\(TableLayout.column(link.property)) = \(id)"
            case .toOne(let owner, let link, _), .mapEntry(let owner, let link, _, _), .listItem(let owner, let link, _, _):
                // The resolver aggregates only over to-many steps; a single object is its own aggregate.
                rows = "FROM \(TableLayout.objectTable(owner)) AS \(object) WHERE \(object).\(TableLayout.column(link)) = \(id) AND \(limits.dialect.alwaysFalse)"
            }
            return "(SELECT \(call(function, argument, type)) \(rows))"
        }
    }

    /// The value aggregated: of mixed values only the numbers count (decimals by their double value),
    /// as Realm sums a list of mixed values.
    private func aggregated(_ value: String, tag: String, _ type: PropertyType) -> String {
        guard type == .mixed else { return value }
        return limits.dialect.mixedAggregated(value, tag: tag)
    }

    private func call(_ function: ResolvedKeyPath.Aggregate, _ argument: String, _ type: PropertyType) -> String {
        switch (function, type) {
        case (_, .decimal): limits.dialect.decimalAggregate(function, argument)
        case (.sum, _): "coalesce(sum(\(argument)), 0)"
        case (.avg, _): "avg(\(argument))"
        case (.min, _), (.max, _): "\(function.rawValue)(\(argument))"
        }
    }
}
