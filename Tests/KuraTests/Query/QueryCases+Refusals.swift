import Foundation
import Kura
import KuraTestSupport
import Testing

/// The queries a realm refuses, each with its message and column: bad predicates, sort keys, limits
/// and types, and predicates nested or long beyond what the engine reads well.
extension QueryCases {
    func badPredicatesAreRefusedWithTheirColumn() throws {
        let cases: [(String, String, String)] = [
            ("Dog", "agee > 3", "where: column 1: error: Dog has no property 'agee' (did you mean 'age'?)"),
            ("Dog", "favoriteToy.nmae == 'x'", "where: column 13: error: DogToy has no property 'nmae' (did you mean 'name'?)"),
            ("Dog", "age == 'three'", #"where: column 8: error: Dog.age: expected int, found string "three""#),
            ("Dog", "age > 2.5", "where: column 7: error: Dog.age: expected int, found number 2.5"),
            ("Dog", "age > 99999999999999999999", "where: column 7: error: Dog.age: expected int, found number 99999999999999999999 (out of the int range)"),
            ("Dog", "age.@count > 1", "where: column 5: error: Dog.age: @count needs a list, set, map, linkingObjects, string or data, not int"),
            ("Dog", "age BEGINSWITH '1'", "where: column 5: error: Dog.age: BEGINSWITH does not apply to int"),
            ("Dog", "age ==[c] 3", "where: column 5: error: Dog.age: [c] does not apply to int"),
            ("Dog", "name < nil", "where: column 8: error: Dog.name: '<' cannot compare with nil"),
            ("Dog", "favoriteToy == 'Rope'", "where: column 16: error: Dog.favoriteToy is a link: compare it with nil, or follow it to a property"),
            ("Dog", "ANY name == 'x'", "where: column 1: error: Dog.name: ANY needs a key path through a list, set, map or linkingObjects"),
            ("Dog", "'x' IN name", "where: column 5: error: Dog.name is not a list, set or map: IN needs one on its right, or values in braces"),
            ("Dog", "age.years > 1", "where: column 5: error: Dog.age is int, not a link"),
            ("Dog", "companion.name == 'x'", "where: column 11: error: Dog.companion is mixed: key paths cannot go into mixed values"),
            ("Dog", "companion < true", "where: column 13: error: Dog.companion: '<' does not apply to bool"),
            ("Person", "dogs == nil", "where: column 1: error: Person.dogs leads to objects: follow it to a property (such as dogs.name) or count it with @count"),
            ("Person", "dogs.@sum > 1", "where: column 6: error: Person.dogs.@sum needs a property of Dog after it, such as Person.dogs.@sum.age"),
            ("Person", "createdAt > 'yesterday'", #"where: column 13: error: Person.createdAt: expected date, found string "yesterday" (not an ISO-8601 date)"#),
            ("Dog", "name ==", "where: column 8: error: expected a value after '==', found the end of the predicate"),
            ("Dog", "name == 'Rex", "where: column 9: error: unterminated string"),
            ("Dog", "age > 3 AND", "where: column 12: error: expected a key path, found the end of the predicate"),
            ("Dog", "(age > 3", "where: column 9: error: expected ')', found the end of the predicate"),
            ("Dog", "age > 3)", "where: column 8: error: expected AND, OR or the end of the predicate, found ')'"),
            ("Dog", "age >> 3", "where: column 6: error: expected a value after '>', found '>'"),
            ("Dog", "name == owners", "where: column 9: error: Dog.owners leads to objects: follow it to a property (such as owners.name) or count it with @count"),
            ("Dog", "age ==[d] 3", "where: column 5: error: Dog.age: [d] does not apply to int"),
            ("Dog", "age BETWEEN {1}", "where: column 13: error: BETWEEN needs two values, such as {1, 5}"),
            ("Dog", "age == $0", "where: column 8: error: $0 has no argument: 0 arguments given, numbered from $0"),
            ("Dog", "name == 'a' # 1", "where: column 13: error: unexpected character '#'"),
            ("Dog", "", "where: column 1: error: the predicate is empty"),
        ]
        for (type, predicate, message) in cases {
            #expect(queryError(type, predicate)?.description == message, "\(predicate)")
        }
        #expect(queryError("Dog", "agee > 3")?.code == .query(.unknownProperty))
        #expect(queryError("Dog", "age == 'three'")?.code == .query(.typeMismatch))
        #expect(queryError("Dog", "age BEGINSWITH '1'")?.code == .query(.unsupportedOperator))
        #expect(queryError("Dog", "age.@count > 1")?.code == .query(.invalidKeyPath))
        #expect(queryError("Dog", "age >> 3")?.code == .query(.syntax))
    }

    func queryError(_ type: String, _ predicate: String?, sortedBy: String? = nil, limit: Int? = nil) -> KuraError? {
        do {
            _ = try realm.objects(type, where: predicate, sortedBy: sortedBy, limit: limit)
            return nil
        } catch let error as KuraError {
            return error
        } catch {
            Issue.record("not a KuraError: \(error)")
            return nil
        }
    }

    func badSortKeysLimitsAndTypesAreRefused() throws {
        #expect(queryError("Person", nil, sortedBy: "dogs.age")?.description
            == "sort: column 1: error: Person.dogs.age goes through a list, set, map or linkingObjects: a sort key may follow only to-one links")
        #expect(queryError("Person", nil, sortedBy: "name, agee desc")?.description == "sort: column 7: error: Person has no property 'agee' (properties: address, bestFriend, createdAt, dogs, id, name)")
        #expect(queryError("Person", nil, sortedBy: "name up")?.description == "sort: column 6: error: expected ASC, DESC, ',' or the end, found 'up'")
        #expect(queryError("Person", nil, sortedBy: "bestFriend")?.description
            == "sort: column 1: error: Person.bestFriend is a link: sort by one of its properties (such as bestFriend.name)")
        // Mixed values sort (ValueEqualityTests has their order).
        #expect(queryError("Dog", nil, sortedBy: "companion") == nil)
        #expect(queryError("Dog", nil, limit: -1) == KuraError.query(.invalidLimit, "the limit must be zero or more, not -1"))
        #expect(queryError("Cat", nil) == KuraError.query(.unknownType, "no type 'Cat' in the realm (types: Address, Dog, DogClub, DogToy, Person)"))
        #expect(queryError("Address", "city == 'Oslo'")?.description
            == "error: Address is embedded: query the type that owns it, through a key path")
    }

    func nestingIsBoundedAndLongPredicatesRun() throws {
        let owners = ["Alice", "Bob", "dana", "Émile"]
        // 32 levels of parentheses alternating OR and AND, with subqueries at the bottom, compile and run.
        var nested = "ANY dogs.owners.@count >= 1"
        for level in 0..<32 {
            nested = level.isMultiple(of: 2) ? "(name == 'Zed' OR \(nested))" : "(name != 'Zed' AND \(nested))"
        }
        #expect(try names("Person", nested) == owners)
        let tooDeep = queryError("Person", "(" + nested + ")")
        #expect(tooDeep?.code == .query(.tooComplex))
        #expect(tooDeep?.message == "the predicate nests more than 32 levels of parentheses and NOT")
        // NOT counts as a level too; sixteen NOT (…) levels cancel out in pairs.
        var negated = "ANY dogs.owners.@count >= 1"
        for _ in 0..<16 { negated = "NOT (name == 'Zed' OR \(negated))" }
        #expect(try names("Person", negated) == owners)
        #expect(queryError("Person", String(repeating: "!", count: 10_000) + "name == 'Alice'")?.code == .query(.tooComplex))
        // Thousands of terms in one chain stay within SQLite's expression depth.
        let chain = (0..<5000).map { "name == 'P\($0)'" }.joined(separator: " OR ") + " OR name == 'Bob'"
        #expect(try names("Person", chain) == ["Bob"])
        // Long to-one chains join one table per link, up to SQLite's 64 tables.
        let friends = Array(repeating: "bestFriend", count: 40).joined(separator: ".")
        #expect(try names("Person", "\(friends).name == 'Alice'") == ["Alice"])
        let tooMany = Array(repeating: "bestFriend", count: 70).joined(separator: ".")
        #expect(queryError("Person", "\(tooMany).name == 'Alice'")?.code == .query(.tooComplex))
    }

    func chainsOfAHundredThousandComparisonsRun() throws {
        // More values than SQLite's default limit binds, in lists far longer than its expression
        // depth; compiled and run in time linear in their length (Benchmarks/predicates.sh).
        for count in [40_000, 100_000] {
            let alternatives = (0..<count).map { "name == 'P\($0)'" }.joined(separator: " OR ")
            #expect(try names("Person", alternatives + " OR name == 'Bob'") == ["Bob"])
            let conditions = (0..<count).map { "name != 'P\($0)'" }.joined(separator: " AND ")
            #expect(try names("Person", conditions + " AND name BEGINSWITH 'B'") == ["Bob"])
        }
        let mixed = (0..<40_000).map { "companion == \($0 + 8)" }.joined(separator: " || ") + " || companion == 7"
        #expect(try names("Dog", mixed) == ["Maui"])
        let negated = "NOT (" + (0..<40_000).map { "age == \($0 + 100)" }.joined(separator: " OR ") + ")"
        #expect(try names("Dog", negated + " AND age > 5") == ["Maui", "Stray"])
        // Subqueries are read again for every object: past 64 of them, a query is refused at the first too many.
        let owners = (0..<65).map { "ANY owners.name == 'P\($0)'" }.joined(separator: " OR ")
        #expect(queryError("Dog", owners)?.description == """
            where: column 1787: error: the query reads lists, sets, maps, linkingObjects and @count in more than 64 places, \
            more than SQLite reads well for every object: compare several values at once, as in ANY tags IN {'a', 'b'}
            """)
    }
}
