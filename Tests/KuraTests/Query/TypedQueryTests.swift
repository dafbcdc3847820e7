import Foundation
import Kura
import KuraTestSupport
import Testing

/// Typed queries on class models: each becomes the predicate text written beside it, with its
/// values as arguments, and selects what that text selects: the objects named, worked out by hand
/// from the graph `QueryLanguageTests` builds.
@Suite struct TypedQueryTests {
    typealias Person = TypedGraph.Person
    typealias Dog = TypedGraph.Dog

    let realm: Realm

    init() throws {
        realm = try QueryLanguageTests().realm
    }

    /// Checks the predicate `query` becomes, the names it selects, and that the text selects the same.
    func expect<Model: KuraObject>(
        _ model: Model.Type, _ query: (Query<Model>) -> Query<Bool>, _ text: String, _ names: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let predicate = try Query<Model>.predicate(query)
        #expect(predicate.text == text, sourceLocation: sourceLocation)
        let typed = try realm.objects(model).where(query)
        #expect(try self.names(typed) == names, "\(text)", sourceLocation: sourceLocation)
        let byText = try realm.objects(Model.typeName, where: predicate.text, arguments: predicate.arguments).map { object in
            guard case .string(let name) = try object["name"] else { return "" }
            return name
        }
        #expect(byText == names, "\(text) as text", sourceLocation: sourceLocation)
    }

    func names<Model: KuraObject>(_ results: Results<Model>) throws -> [String] {
        let objects = try results[0..<100]
        return objects.map { object in
            switch object {
            case let person as Person: person.name
            case let dog as Dog: dog.name
            default: "?"
            }
        }
    }

    @Test func comparisonsLogicAndText() throws {
        try expect(Person.self, { $0.age > 26 }, "age > $0", ["Ann", "Céline"])
        try expect(Person.self, { $0.age > 26 && $0.dogs.count > 1 }, "age > $0 AND dogs.@count > $1", ["Ann"])
        try expect(Person.self, { $0.age == 25 || $0.name == "Ann" }, "age == $0 OR name == $1", ["Ann", "Bob", "Dan"])
        try expect(Person.self, { !($0.age == 25 || $0.name == "Ann") }, "NOT (age == $0 OR name == $1)", ["Céline"])
        try expect(
            Person.self, { ($0.age == 25 || $0.age == 40) && $0.tags.count > 0 }, "(age == $0 OR age == $1) AND tags.@count > $2",
            ["Céline", "Dan"])
        try expect(Person.self, { $0.age != 25 && !($0.name == "Ann") }, "age != $0 AND NOT name == $1", ["Céline"])
        try expect(Person.self, { $0.name.starts(with: "c", options: .caseInsensitive) }, "name BEGINSWITH[c] $0", ["Céline"])
        try expect(
            Person.self, { $0.name.equals("CELINE", options: [.caseInsensitive, .diacriticInsensitive]) }, "name ==[cd] $0", ["Céline"])
        try expect(Person.self, { $0.name.ends(with: "line", options: .diacriticInsensitive) }, "name ENDSWITH[d] $0", ["Céline"])
        try expect(Person.self, { $0.name.contains("n") }, "name CONTAINS $0", ["Ann", "Céline", "Dan"])
        try expect(Person.self, { $0.name.notEquals("ann", options: .caseInsensitive) }, "name !=[c] $0", ["Bob", "Céline", "Dan"])
        try expect(Person.self, { $0.name.like("?o*") }, "name LIKE $0", ["Bob"])
        try expect(Person.self, { $0.name.in(["Ann", "Dan", "Zed"]) }, "name IN $0", ["Ann", "Dan"])
        try expect(Person.self, { $0.age.contains(25...30) }, "age BETWEEN $0", ["Ann", "Bob", "Dan"])
        let five = try #require(Decimal128("5"))
        try expect(Person.self, { $0.budget > five }, "budget > $0", ["Ann", "Dan"])
        try expect(Person.self, { $0.address.city == "Oslo" }, "address.city == $0", ["Ann"])
        try expect(Person.self, { $0.address.city == nil }, "address.city == $0", ["Bob", "Dan"])
    }

    @Test func linksAndKeyPathsAgainstKeyPaths() throws {
        try expect(Person.self, { $0.bestFriend.name == "Bob" }, "bestFriend.name == $0", ["Ann"])
        try expect(Person.self, { $0.bestFriend == nil }, "bestFriend == nil", ["Dan"])
        try expect(Person.self, { $0.bestFriend != nil && $0.age < 40 }, "bestFriend != nil AND age < $0", ["Ann", "Bob"])
        try expect(Person.self, { $0.age > $0.bestFriend.age }, "age > bestFriend.age", ["Ann"])
        try expect(Person.self, { $0.bestFriend.bestFriend.id == $0.id }, "bestFriend.bestFriend.id == id", ["Ann", "Bob", "Céline"])
        try expect(
            Person.self, { $0.linkingObjects(\Person.bestFriend).count > 0 }, "@links.Person.bestFriend.@count > $0",
            ["Ann", "Bob", "Céline"])
        try expect(Dog.self, { $0.owners.count == 2 }, "owners.@count == $0", ["Rex"])
        try expect(Dog.self, { $0.owners.name == "Dan" }, "owners.name == $0", ["Maui"])
        try expect(Dog.self, { $0.linkingObjects(\Person.dogs).count == 0 }, "@links.Person.dogs.@count == $0", ["Stray"])
    }

    @Test func collectionsAggregatesAndSubqueries() throws {
        try expect(Person.self, { $0.dogs.age > 4 }, "dogs.age > $0", ["Ann"])
        try expect(Person.self, { $0.dogs.count == 0 }, "dogs.@count == $0", ["Céline"])
        try expect(Person.self, { $0.dogs[0].name == "Rex" }, "dogs[0].name == $0", ["Ann", "Bob"])
        try expect(Person.self, { $0.dogs.age.sum == 0 }, "dogs.@sum.age == $0", ["Céline"])
        try expect(Person.self, { $0.dogs.age.avg == 4 }, "dogs.@avg.age == $0", ["Ann"])
        try expect(Person.self, { $0.dogs.age.avg == nil }, "dogs.@avg.age == $0", ["Céline"])
        try expect(Person.self, { $0.dogs.age.max >= 3 }, "dogs.@max.age >= $0", ["Ann", "Bob"])
        try expect(Dog.self, { $0.owners.age.avg == 27.5 }, "owners.@avg.age == $0", ["Rex"])
        try expect(Dog.self, { $0.scores.sum == 6 }, "scores.@sum == $0", ["Rex"])
        try expect(Dog.self, { $0.scores.avg > 4 }, "scores.@avg > $0", ["Maui", "Stray"])
        try expect(Dog.self, { $0.scores.max == 10 }, "scores.@max == $0", ["Maui"])
        try expect(Dog.self, { $0.toys.price.sum == 3.5 }, "toys.@sum.price == $0", ["Rex"])
        try expect(Dog.self, { $0.toys.name == "rope" }, "toys.name == $0", ["Rex", "Stray"])
        try expect(Person.self, { $0.tags.contains("blue") }, "$0 IN tags", ["Ann", "Céline"])
        try expect(Person.self, { $0.tags.containsAny(in: ["green", "red"]) }, "ANY tags IN $0", ["Ann", "Dan"])
        try expect(Person.self, { $0.extras.contains(true) }, "$0 IN extras", ["Céline"])
        try expect(Person.self, { $0.extras.count == 2 }, "extras.@count == $0", ["Céline", "Dan"])
        try expect(
            Person.self, { $0.dogs.where { $0.age > 2 && $0.toys.count > 0 }.count > 0 },
            "SUBQUERY(dogs, $x0, $x0.age > $0 AND $x0.toys.@count > $1).@count > $2", ["Ann", "Bob"])
        try expect(
            Person.self, { $0.dogs.where { $0.toys.where { $0.price > 2 }.count > 0 }.count == 1 },
            "SUBQUERY(dogs, $x0, SUBQUERY($x0.toys, $x1, $x1.price > $0).@count > $1).@count == $2", ["Ann", "Bob", "Dan"])
    }

    @Test func mapsAndMixedValues() throws {
        try expect(Person.self, { $0.nick["a"] == "annie" }, "nick[$0] == $1", ["Ann"])
        try expect(Person.self, { $0.nick["a"] == nil }, "nick[$0] == $1", ["Céline", "Dan"])
        try expect(Person.self, { $0.nick.keys == "b" }, "nick.@keys == $0", ["Ann", "Dan"])
        try expect(Person.self, { $0.nick.values == "x" }, "nick.@values == $0", ["Ann", "Dan"])
        try expect(Person.self, { $0.nick.count == 0 }, "nick.@count == $0", ["Céline"])
        try expect(Person.self, { $0.extra == "hello" }, "extra == $0", ["Ann"])
        try expect(Person.self, { $0.extra > 10 }, "extra > $0", ["Bob"])
        try expect(Person.self, { $0.extra == nil }, "extra == $0", ["Céline"])
    }

    @Test func sortingAndDistinctByKeyPaths() throws {
        let people = try realm.objects(Person.self)
        #expect(try names(people.sorted(by: \.age, ascending: false)) == ["Céline", "Ann", "Bob", "Dan"])
        #expect(try names(people.sorted(by: \.address?.city)) == ["Bob", "Dan", "Céline", "Ann"])
        #expect(try names(people.sorted(by: \.age).distinct(by: [\.age])) == ["Bob", "Ann", "Céline"])
        #expect(try names(people.distinct(by: ["age"])) == ["Ann", "Bob", "Céline"])
        #expect(try names(people.distinct(by: [\.age]).sorted(by: \.name, ascending: false)) == ["Céline", "Bob", "Ann"])
        #expect(try names(people.where { $0.age < 40 }.sorted(by: \.name, ascending: false)) == ["Dan", "Bob", "Ann"])
        // A struct model's key paths name their properties as a class's do.
        let cities = try realm.objects(TypedGraph.Address.self).where { $0.city.starts(with: "B") || $0.city == nil }
        #expect(try cities.count == 1)
        #expect(try cities.first?.city == "Bergen")
    }

    @Test func whatATypedQueryCannotSayIsRefusedWithItsReason() throws {
        try expectRefusal("typed query: sum needs a list, set or backlinks on the way, as in $0.dogs.age.sum") {
            try realm.objects(Person.self).where { $0.age.sum > 3 }
        }
        try expectRefusal("typed query: \\Person.<computed String> is not a stored property of Person (nor a @Link or @Backlinks)") {
            try realm.objects(Person.self).where { $0.label == "x" }
        }
        try expectRefusal("typed query: a property can only follow a property, a link or a list") {
            try realm.objects(Person.self).where { $0.dogs.where { $0.age > 1 }.name == "Rex" }
        }
        try expectRefusal("typed query: sum needs a property, as in $0.name") {
            try realm.objects(Person.self).where { $0.dogs.count.sum > 1 }
        }
        let error = #expect(throws: KuraError.self) { try realm.objects(Person.self).where { $0.tags[0] == "red" } }
        #expect(error?.message == "Person.tags is not a list: [0] needs one (in the predicate `tags[0] == $0`)")
        #expect(error?.position?.column == 5)
    }

    func expectRefusal(_ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation, _ body: () throws -> some Any) throws {
        let error = #expect(throws: KuraError.self, sourceLocation: sourceLocation) { _ = try body() }
        #expect(error?.code == .query(.invalidKeyPath), sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }
}

extension TypedGraph.Person {
    /// Computed, so never stored: a typed query cannot read it.
    var label: String { name }
}
