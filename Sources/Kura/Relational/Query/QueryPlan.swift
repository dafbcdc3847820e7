/// The order and the steps of a query after its predicate: `SORT`, `DISTINCT` and `LIMIT` as Realm
/// applies them, in the order written, and the sort keys given beside the predicate.
///
/// Without `DISTINCT` or `LIMIT` in the text, a query stays one SELECT ordered by its terms. With
/// them, it becomes a chain of common table expressions: the matching objects with every value
/// the steps read, then one step each, each reading the order so far.
struct QueryPlan {
    /// One step that keeps some of the objects so far.
    private enum Step {
        /// The first object (in `order`) of each combination of `values`.
        case distinct([OrderTerm], order: [OrderTerm])
        /// The first `count` objects in `order`.
        case limit(Int, order: [OrderTerm])
    }

    /// The order so far, the most significant term first; creation order decides last.
    private(set) var order: [OrderTerm] = []
    private var steps: [Step] = []
    /// The descriptors as a cursor's signature reads them.
    private(set) var signature: [String] = []

    /// The plan of `descriptors` on objects that start in the order of `base`.
    init(_ descriptors: [QueryDescriptor], startingIn base: [OrderTerm] = [], compiler: PredicateCompiler) throws(KuraError) {
        order = base
        // Each SORT is the new order, ties kept in the order so far: Realm prepends a SORT's keys
        // to those of a SORT right before it, and sorts stably after DISTINCT and LIMIT.
        for descriptor in descriptors {
            switch descriptor {
            case .sort(let keys):
                var terms: [OrderTerm] = []
                for key in keys { terms.append(try compiler.orderTerm(key, source: .where)) }
                order = terms + order
                signature.append("SORT(" + keys.map { $0.keyPath.text + ($0.ascending ? "" : " desc") }.joined(separator: ",") + ")")
            case .distinct(let paths):
                var terms: [OrderTerm] = []
                for path in paths { terms.append(try compiler.orderTerm(SortKey(keyPath: path, ascending: true), source: .where)) }
                steps.append(.distinct(terms, order: order))
                signature.append("DISTINCT(" + paths.map(\.text).joined(separator: ",") + ")")
            case .limit(let count, _):
                steps.append(.limit(count, order: order))
                signature.append("LIMIT(\(count))")
            }
        }
    }

    /// Orders the objects by `terms` first, ties kept in the order so far.
    mutating func sort(by terms: [OrderTerm]) {
        order = terms + order
    }

    /// Where the rows come from: a `WITH` clause (empty for one SELECT), the `FROM` clause, the
    /// conditions, the object id's expression and the order, read from the last step.
    struct Rows {
        var with: String
        var from: String
        var clauses: [String]
        var id: String
        var order: [OrderTerm]
    }

    func rows(compiler: PredicateCompiler, condition: String?) -> Rows {
        let idColumn = "\(compiler.rootAlias).\(TableLayout.idColumn)"
        guard !steps.isEmpty else {
            return Rows(with: "", from: compiler.scope.fromClause, clauses: condition.map { [$0] } ?? [], id: idColumn, order: order)
        }
        // Every value a step or the final order reads, computed once per object as a column.
        var values: [String] = []
        func column(_ term: OrderTerm) -> OrderTerm {
            let index = values.firstIndex(of: term.value) ?? {
                values.append(term.value)
                return values.count - 1
            }()
            return term.reading(TableLayout.quote("#k\(index)"))
        }
        let id = TableLayout.idColumn
        func orderSQL(_ terms: [OrderTerm]) -> String {
            (terms.map { column($0).sql } + [id]).joined(separator: ", ")
        }
        // Every step carries every column, so all of them are known before the first is written.
        for step in steps {
            switch step {
            case .distinct(let terms, let order): _ = (terms + order).map(column)
            case .limit(_, let order): _ = order.map(column)
            }
        }
        let finalOrder = order.map(column)
        let columns = ([id] + values.indices.map { TableLayout.quote("#k\($0)") }).joined(separator: ", ")
        var stepSQL: [String] = []
        for (index, step) in steps.enumerated() {
            let previous = Self.stepName(index)
            switch step {
            case .distinct(let terms, let order):
                let partition = terms.map { column($0).expression }.joined(separator: ", ")
                stepSQL.append(
                    "SELECT \(columns) FROM (SELECT \(columns), row_number() OVER (PARTITION BY \(partition) ORDER BY \(orderSQL(order))) AS "
                        + "\(TableLayout.quote("#n")) FROM \(previous))\(compiler.limits.dialect.derivedTableAlias) WHERE \(TableLayout.quote("#n")) = 1")
            case .limit(let count, let order):
                stepSQL.append("SELECT \(columns) FROM \(previous) ORDER BY \(orderSQL(order)) LIMIT \(count)")
            }
        }
        let selected = (["\(idColumn) AS \(id)"] + values.enumerated().map { "\($1) AS \(TableLayout.quote("#k\($0)"))" })
            .joined(separator: ", ")
        var with = "WITH \(Self.stepName(0)) AS (SELECT \(selected) \(compiler.scope.fromClause)"
        if let condition { with += " WHERE \(condition)" }
        with += ")"
        for (index, sql) in stepSQL.enumerated() {
            with += ", \(Self.stepName(index + 1)) AS (\(sql))"
        }
        return Rows(with: with + " ", from: "FROM \(Self.stepName(steps.count))", clauses: [], id: id, order: finalOrder)
    }

    private static func stepName(_ index: Int) -> String { TableLayout.quote("#q\(index)") }
}
