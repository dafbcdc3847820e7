import Testing

/// One row of the query table: a predicate on a type and its answer, worked out in plain Swift on
/// the suite's graph. An answer is the primary keys selected, in order when the query sorts.
package struct QueryCase: Sendable, CustomTestStringConvertible {
    package enum Answer: Sendable, Equatable {
        /// The keys of the objects selected, in no particular order.
        case keys(Set<Int>)
        /// The keys in the order the query's SORT, DISTINCT and LIMIT give.
        case ordered([Int])
    }

    /// The part of the language the case is about, for counting the table by construct.
    package var construct: String
    package let type: String
    package let query: String
    /// The values of `$0`, `$1` …, which only the library and the service take.
    package let arguments: [SuiteArgument]
    package let answer: @Sendable (QueryGraph) -> Answer

    package init(
        construct: String = "", type: String, query: String, arguments: [SuiteArgument] = [],
        answer: @escaping @Sendable (QueryGraph) -> Answer
    ) {
        self.construct = construct
        self.type = type
        self.query = query
        self.arguments = arguments
        self.answer = answer
    }

    package var testDescription: String {
        arguments.isEmpty ? "\(type) where \(query)" : "\(type) where \(query) with \(SuiteArgument.json(arguments))"
    }

    /// Whether the answer is compared in order: the query sorts.
    package var isOrdered: Bool {
        if case .ordered = answer(QueryGraph.generated) { return true }
        return false
    }

    /// Whether `found` (keys in the order they came) is the expected answer.
    package func expect(_ found: [Int], via route: String, sourceLocation: SourceLocation = #_sourceLocation) {
        switch answer(QueryGraph.generated) {
        case .keys(let expected):
            #expect(found.sorted() == expected.sorted(), "\(route): \(type) where \(query)", sourceLocation: sourceLocation)
        case .ordered(let expected):
            #expect(found == expected, "\(route): \(type) where \(query)", sourceLocation: sourceLocation)
        }
    }

    package static func person(
        _ query: String, _ arguments: [SuiteArgument] = [], _ matches: @escaping @Sendable (QueryGraph.Person, QueryGraph) -> Bool
    ) -> QueryCase {
        QueryCase(type: "Person", query: query, arguments: arguments) { graph in
            .keys(Set(graph.people.filter { matches($0, graph) }.map(\.id)))
        }
    }

    package static func dog(_ query: String, _ matches: @escaping @Sendable (QueryGraph.Dog, QueryGraph) -> Bool) -> QueryCase {
        QueryCase(type: "Dog", query: query) { graph in .keys(Set(graph.dogs.filter { matches($0, graph) }.map(\.id))) }
    }

    package static func toy(
        _ query: String, _ arguments: [SuiteArgument] = [], _ matches: @escaping @Sendable (QueryGraph.Toy, QueryGraph) -> Bool
    ) -> QueryCase {
        QueryCase(type: "Toy", query: query, arguments: arguments) { graph in
            .keys(Set(graph.toys.filter { matches($0, graph) }.map(\.id)))
        }
    }

    package static func ordered(_ type: String, _ query: String, _ keys: @escaping @Sendable (QueryGraph) -> [Int]) -> QueryCase {
        QueryCase(type: type, query: query) { graph in .ordered(keys(graph)) }
    }
}

/// The whole table, grouped by construct.
package enum QueryTable {
    package static let cases: [QueryCase] =
        group("comparisons", QueryTable.comparisons) + group("strings", QueryTable.strings)
        + group("logic", QueryTable.logic) + group("collections of values", QueryTable.valueCollections)
        + group("maps", QueryTable.maps) + group("mixed and @type", QueryTable.mixedValues)
        + group("links and key paths", QueryTable.links) + group("lists of objects", QueryTable.objectLists)
        + group("aggregates", QueryTable.aggregates) + group("subqueries", QueryTable.subqueries)
        + group("backlinks", QueryTable.backlinks) + group("list positions", QueryTable.positions)
        + group("arithmetic", QueryTable.arithmetic) + group("embedded objects", QueryTable.embedded)
        + group("SORT, DISTINCT, LIMIT", QueryTable.ordering) + group("arguments", QueryTable.arguments)

    private static func group(_ construct: String, _ cases: [QueryCase]) -> [QueryCase] {
        cases.map { item in
            var named = item
            named.construct = construct
            return named
        }
    }

    /// How many cases each construct has, in the table's order.
    package static var countsByConstruct: [(construct: String, count: Int)] {
        var counts: [(construct: String, count: Int)] = []
        for item in cases {
            if let last = counts.indices.last, counts[last].construct == item.construct {
                counts[last].count += 1
            } else {
                counts.append((item.construct, 1))
            }
        }
        return counts
    }
}
