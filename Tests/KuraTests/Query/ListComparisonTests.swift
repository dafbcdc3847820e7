import Foundation
import Kura
import KuraTestSupport
import Testing

/// Lists of values on either side of any operator, with `ANY`, `ALL` or `NONE` before them, as
/// Realm's list comparisons: answers worked out by hand from the graph `QueryLanguageTests` builds
/// (Ann 30, Bob 25, Céline 40, Dan 25; dogs Rex 3, Fido 5, Maui 1).
@Suite struct ListComparisonTests {
    let graph: QueryLanguageTests

    init() throws {
        graph = try QueryLanguageTests()
    }

    @Test func aListOnTheRightTakesAnyAllOrNone() {
        graph.expect("Person", [
            "age == {25, 40}": ["Bob", "Céline", "Dan"],
            "age == ANY {25, 40}": ["Bob", "Céline", "Dan"],
            "age == NONE {25, 40}": ["Ann"],
            "age != ALL {25, 40}": ["Ann"],
            "age IN NONE {25, 40}": ["Ann"],
            "age > ALL {20, 29}": ["Ann", "Céline"],
            "age < ANY {26, 31}": ["Ann", "Bob", "Dan"],
            "age >= NONE {30, 26}": ["Bob", "Dan"],
            "age == ALL {}": ["Ann", "Bob", "Céline", "Dan"],
            "age == ANY {}": [],
            "name BEGINSWITH ANY {'A', 'D'}": ["Ann", "Dan"],
            "name ==[cd] ANY {'celine', 'BOB'}": ["Bob", "Céline"],
            "name CONTAINS ALL {'a', 'n'}": ["Dan"],
            "extra == ANY {'hello', 42}": ["Ann", "Bob"],
        ])
    }

    @Test func aListThroughACollectionHoldsForEachElement() {
        graph.expect("Person", [
            "ANY dogs.age == {1, 5}": ["Ann", "Dan"],
            "ALL dogs.age > ANY {2, 4}": ["Ann", "Bob", "Céline"],
            "NONE dogs.age < ALL {4, 6}": ["Céline"],
            "ANY dogs.age > ALL {2, 4}": ["Ann"],
        ])
    }

    @Test func aListOnTheLeftIsOneComparisonPerValue() {
        graph.expect("Person", [
            "{25, 30} == age": ["Ann", "Bob", "Dan"],
            "ALL {20, 29} < age": ["Ann", "Céline"],
            "NONE {25} == age": ["Ann", "Céline"],
            "ALL {'red', 'blue'} IN tags": ["Ann"],
            "ANY {'green', 'red'} IN tags": ["Ann", "Dan"],
            "NONE {'blue'} IN tags": ["Bob", "Dan"],
            "ALL {3, 5} == dogs.age": ["Ann"],
        ])
    }

    @Test func twoListsCompareAsAConstant() {
        let everyone = ["Ann", "Bob", "Céline", "Dan"]
        graph.expect("Person", [
            "ANY {1, 2, 3} > ALL {1, 2}": everyone,
            "ANY {1, 2, 3} == NONE {1, 2}": everyone,
            "ANY {4, 8} == ANY {5, 9, 11}": [],
            "ANY {1, 2, 7} <= NONE {1, 2}": everyone,
            "ALL {1, 2} IN ANY {1, 2, 3}": everyone,
            "ALL {3, 1, 4, 3} == NONE {1, 2}": [],
            "ALL {} IN ALL {1, 2}": everyone,
            "NONE {1, 2, 3, 12} > ALL {5, 9, 11}": [],
            "NONE {4, 8} > ALL {5, 9, 11}": everyone,
            "NONE {0, 1} < NONE {1, 2}": everyone,
            "ANY {'Ab', 'c'} BEGINSWITH[c] ANY {'a'} AND age == 30": ["Ann"],
        ])
    }

    @Test func aListArgumentTakesAQuantifierAsWrittenValuesDo() throws {
        let names = try graph.realm.objects("Person", where: "age == NONE $0 AND age > ALL $1", arguments: [[25, 40], [10]]).map { object in
            guard case .string(let name) = try object["name"] else { return "" }
            return name
        }
        #expect(names == ["Ann"])
    }

    @Test func misplacedListsAreRefusedAtTheirColumn() throws {
        let cases: [(String, String)] = [
            ("age BETWEEN ALL {1, 2}", "where: column 13: error: BETWEEN takes its two values without ALL"),
            ("{1, 2} BETWEEN {1, 2}", "where: column 1: error: BETWEEN needs a key path on its left"),
            ("{'a'} LIKE {'a'}", "where: column 7: error: LIKE compares a key path with a pattern, not two values"),
            ("age > ALL {1, 'x'}", "where: column 15: error: Person.age: expected int, found string \"x\""),
            ("{1} == 1", "where: column 5: error: both sides of == are values: compare a key path with a value, or two key paths"),
        ]
        for (predicate, message) in cases {
            let error = #expect(throws: KuraError.self, "\(predicate)") { try graph.realm.objects("Person", where: predicate) }
            #expect(error?.description == message, "\(predicate)")
        }
    }
}
