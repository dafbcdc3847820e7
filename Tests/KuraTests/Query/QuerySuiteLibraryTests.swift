import Foundation
import Kura
import KuraTestSupport
import Testing

/// Every case of the query table through the library: the generated graph imported once with
/// `DocumentImporter`, each predicate run by `Realm.objects(_:where:arguments:)`, its primary keys
/// compared with the answer worked out in plain Swift.
@Suite struct QuerySuiteLibraryTests {
    /// One realm for the whole suite: the cases only read it.
    static let realm = Result { () throws -> Realm in
        let inputs = try QuerySuiteInputs()
        let realm = try Realm(path: inputs.folder.appendingPathComponent("graph.realm").path, schema: Schema(yaml: QueryGraph.schemaYAML))
        _ = try DocumentImporter(realm: realm).run(JSONReader(path: inputs.documentsPath))
        return realm
    }

    @Test(arguments: QueryTable.cases)
    func theLibraryAnswersAsPlainSwiftDoes(_ queryCase: QueryCase) throws {
        let realm = try Self.realm.get()
        let objects = try realm.objects(queryCase.type, where: queryCase.query, arguments: queryCase.arguments.map(Self.value))
        let keys = try objects.map { object in
            guard case .int(let key) = try object["id"] else { throw QuerySuiteFailure("\(object.type) without an int id") }
            return Int(key)
        }
        queryCase.expect(keys, via: "library")
    }

    /// A table whose answers were mostly empty or everything would pass whatever Kura did.
    @Test func theTableAsksQuestionsWithManyDifferentAnswers() {
        let graph = QueryGraph.generated
        let sizes = ["Person": graph.people.count, "Dog": graph.dogs.count, "Toy": graph.toys.count]
        var telling: Set<String> = []
        for queryCase in QueryTable.cases {
            let keys: [Int] = switch queryCase.answer(graph) {
            case .keys(let keys): keys.sorted()
            case .ordered(let keys): keys
            }
            if !keys.isEmpty && keys.count < sizes[queryCase.type, default: 0] {
                telling.insert("\(queryCase.type): \(keys)")
            }
        }
        #expect(QueryTable.cases.count >= 150)
        #expect(telling.count >= 120, "only \(telling.count) distinct answers are neither empty nor everything")
        #expect(Set(QueryTable.cases.map(\.testDescription)).count == QueryTable.cases.count, "a query is in the table twice")
    }

    /// The shapes the table's answers depend on, which a change of seed or pools could lose.
    @Test func theGraphHoldsTheShapesTheTableNeeds() {
        let graph = QueryGraph.generated
        #expect(graph.people.contains { $0.bestFriend == $0.id })
        #expect(graph.people.contains { $0.bestFriend == nil && $0.address == nil && $0.dogs.isEmpty && $0.nick.isEmpty })
        #expect(graph.dogs.contains { graph.owners(of: $0).isEmpty })
        #expect(graph.dogs.contains { graph.owners(of: $0).count >= 3 })
        #expect(graph.dogs.contains { graph.linkCount(of: $0) > graph.owners(of: $0).count })
        #expect(graph.toys.contains { graph.holders(of: $0).count >= 2 })
        #expect(graph.toys.contains { graph.holders(of: $0).isEmpty })
        for name in ["Céline", "celine", "ÉMILE", "Zoë"] { #expect(graph.people.contains { $0.name == name }) }
        let kinds = Set(graph.people.flatMap { RealmRules.typeNames($0.extraValue) })
        let everyKind = ["null", "bool", "int", "double", "decimal", "string", "date", "objectid", "uuid", "binary", "link", "list", "dictionary"]
        for kind in everyKind {
            #expect(kinds.contains(kind), "no extra of type \(kind)")
        }
    }

    static func value(_ argument: SuiteArgument) -> Value {
        switch argument {
        case .null: .null
        case .int(let number): .int(Int64(number))
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .date(let milliseconds): .date(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        case .list(let items): .list(items.map(value))
        }
    }
}
