import Foundation
import Kura
import KuraTestSupport
import Testing

/// The query table's cases that typed queries can say, written in Swift: each selects the objects
/// the case's plain-Swift answer names, on the realm the library suite reads.
@Suite struct QuerySuiteTypedTests {
    typealias Person = SuiteModels.Person
    typealias Dog = SuiteModels.Dog
    typealias Toy = SuiteModels.Toy

    /// A case of the table (by its type and text) and the same question as a typed query.
    struct TypedCase: Sendable, CustomTestStringConvertible {
        let type: String
        let text: String
        let ids: @Sendable (Realm) throws -> [Int]
        var testDescription: String { "\(type) where \(text)" }

        static func person(_ text: String, _ query: @escaping @Sendable (Query<Person>) -> Query<Bool>) -> TypedCase {
            TypedCase(type: "Person", text: text) { realm in try realm.objects(Person.self).where(query).map(\.id) }
        }

        static func dog(_ text: String, _ query: @escaping @Sendable (Query<Dog>) -> Query<Bool>) -> TypedCase {
            TypedCase(type: "Dog", text: text) { realm in try realm.objects(Dog.self).where(query).map(\.id) }
        }

        static func toy(_ text: String, _ query: @escaping @Sendable (Query<Toy>) -> Query<Bool>) -> TypedCase {
            TypedCase(type: "Toy", text: text) { realm in try realm.objects(Toy.self).where(query).map(\.id) }
        }
    }

    static let thousand: Decimal128? = Decimal128("1000")

    static let cases: [TypedCase] = [
        .person("bestFriend == nil") { $0.bestFriend == nil },
        .person("bestFriend.id == id") { $0.bestFriend.id == $0.id },
        .person("bestFriend.born < born") { $0.bestFriend.born < $0.born },
        .person("dogs.age > 13") { $0.dogs.age > 13 },
        .person("NONE dogs.age > 12") { !($0.dogs.age > 12) },
        .person("scores.@sum == 0") { $0.scores.sum == 0 },
        .person("scores.@min < 0") { $0.scores.min < 0 },
        .person("dogs.@sum.age > 20") { $0.dogs.age.sum > 20 },
        .person("dogs.@avg.age == nil") { $0.dogs.age.avg == nil },
        .person("extras.@sum > 20") { $0.extras.sum > 20 },
        .person("extras.@max > 50") { $0.extras.max > 50 },
        .person("SUBQUERY(dogs, $d, $d.age > 5).@count > 1") { $0.dogs.where { $0.age > 5 }.count > 1 },
        .person("age == 49") { $0.age == 49 },
        .person("age <= 18") { $0.age <= 18 },
        .person("age IN {7, 18, 49, 66}") { $0.age.in([7, 18, 49, 66]) },
        .person("height > 1.8") { $0.height > 1.8 },
        .person("height != 1.85") { $0.height != 1.85 },
        .person("born == nil") { $0.born == nil },
        .person("budget > 1000") { $0.budget > thousand },
        .person("name == 'Céline'") { $0.name == "Céline" },
        .person("name ==[cd] 'CELINE'") { $0.name.equals("CELINE", options: [.caseInsensitive, .diacriticInsensitive]) },
        .person("name BEGINSWITH 'É'") { $0.name.starts(with: "É") },
        .person("name BEGINSWITH[cd] 'e'") { $0.name.starts(with: "e", options: [.caseInsensitive, .diacriticInsensitive]) },
        .person("name ENDSWITH[cd] 'E'") { $0.name.ends(with: "E", options: [.caseInsensitive, .diacriticInsensitive]) },
        .person("name CONTAINS[d] 'oe'") { $0.name.contains("oe", options: .diacriticInsensitive) },
        .person("name LIKE '?o?'") { $0.name.like("?o?") },
        .person("dogs[0].name ==[c] 'rex'") { $0.dogs[0].name.equals("rex", options: .caseInsensitive) },
        .person("address.city == 'Oslo'") { $0.address.city == "Oslo" },
        .person("address.zip > 5000") { $0.address.zip > 5000 },
        .person("address.city IN {'Oslo', 'Bergen'}") { $0.address.city.in(["Oslo", "Bergen"]) },
        .person("pastAddresses.city == nil") { $0.pastAddresses.city == nil },
        .person("pastAddresses.@max.zip > 9000") { $0.pastAddresses.zip.max > 9000 },
        .person("age < 10 OR age > 80") { $0.age < 10 || $0.age > 80 },
        .person("age > 30 && (bestFriend == nil || tags.@count > 1)") { $0.age > 30 && ($0.bestFriend == nil || $0.tags.count > 1) },
        .person("(age > 60 OR age < 10) AND height > 1.8") { ($0.age > 60 || $0.age < 10) && $0.height > 1.8 },
        .person("'red' IN tags") { $0.tags.contains("red") },
        .person("tags.@count >= 3") { $0.tags.count >= 3 },
        .person("5 IN scores") { $0.scores.contains(5) },
        .person("nick['a'] == 'x'") { $0.nick["a"] == "x" },
        .person("nick.@keys == 'work'") { $0.nick.keys == "work" },
        .person("nick.@size == 2") { $0.nick.count == 2 },
        .person("extra == true") { $0.extra == true },
        .person("extra == 5.0") { $0.extra == 5.0 },
        .person("extra < 0") { $0.extra < 0 },
        .person("extra IN {5, 'hello', true}") { $0.extra.in([5, "hello", true]) },
        .person("@links.Person.bestFriend.@count >= 2") { $0.linkingObjects(\Person.bestFriend).count >= 2 },
        .person("@links.Person.bestFriend.age > 80") { $0.linkingObjects(\Person.bestFriend).age > 80 },
        .dog("toys.name ==[c] 'ball'") { $0.toys.name.equals("ball", options: .caseInsensitive) },
        .dog("toys.@count == 0") { $0.toys.count == 0 },
        .dog("toys.@sum.price > 30") { $0.toys.price.sum > 30 },
        .dog("owners.@avg.age > 50") { $0.owners.age.avg > 50 },
        .dog("SUBQUERY(toys, $t, $t.cost == nil).@count > 0") { $0.toys.where { $0.cost == nil }.count > 0 },
        .dog("age BETWEEN {3, 5}") { $0.age.contains(3...5) },
        .dog("owners.@count == 0") { $0.owners.count == 0 },
        .dog("owners.age > 80") { $0.owners.age > 80 },
        .dog("owners.bestFriend.name == 'Bob'") { $0.owners.bestFriend.name == "Bob" },
        .dog("name ==[cd] 'nandu'") { $0.name.equals("nandu", options: [.caseInsensitive, .diacriticInsensitive]) },
        .dog("name !=[cd] 'REX'") { $0.name.notEquals("REX", options: [.caseInsensitive, .diacriticInsensitive]) },
        .toy("price > 20") { $0.price > 20 },
        .toy("cost == nil") { $0.cost == nil },
        .toy("name CONTAINS[cd] 'BALL'") { $0.name.contains("BALL", options: [.caseInsensitive, .diacriticInsensitive]) },
    ]

    @Test(arguments: cases)
    func aTypedQueryAnswersAsTheTablesTextDoes(_ typed: TypedCase) throws {
        let queryCase = try #require(QueryTable.cases.first { $0.type == typed.type && $0.query == typed.text }, "no case \(typed.text)")
        let realm = try QuerySuiteLibraryTests.realm.get()
        queryCase.expect(try typed.ids(realm), via: "typed query")
    }

    @Test func theTypedCasesCoverEveryType() {
        #expect(Self.cases.count >= 60)
        #expect(Set(Self.cases.map(\.type)) == ["Person", "Dog", "Toy"])
    }
}
