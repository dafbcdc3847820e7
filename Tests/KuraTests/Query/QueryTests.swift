import Foundation
import Kura
import KuraTestSupport
import Testing

/// Realm-style predicates, sorting and limits on a realm file of the samples schema.
struct QueryCases {
    let realm: Realm

    /// Dogs (by id): Rex, Fido, Maui, Bella, Stray, Ghost. People: Alice, Bob, Chen, dana, Émile.
    /// Alice owns Rex and Fido, Bob owns Rex and Maui, dana owns Bella, Émile owns Fido; Stray and Ghost
    /// have no owner. Best friends: Alice → Bob → Alice, dana → Chen, Émile → dana.
    init(_ engine: RealmEngine) throws {
        realm = try Realm(path: try engine.freshRealm(), schema: try Fixtures.samplesSchema())
        let createdAt = try ["2024-03-01T09:30:00Z", "2024-03-02T12:00:00Z", "2024-01-15T08:00:00Z", "2023-12-31T23:59:59.999Z",
                             "2025-06-01T00:00:00Z"].map(Self.date)
        try realm.write {
            let dogRefs = try [
                ["name": "Rex", "age": 3, "color": "brown", "citiesVisited": ["Oslo", "Bergen"],
                 "favoriteParksByCity": ["Oslo": "Frognerparken"], "companion": ["toy": "ball"], "favoriteToy": ["name": "Squeaky duck"]],
                ["name": "Fido", "age": 1, "companion": ["stick", 7, true]],
                ["name": "Maui", "age": 7, "color": "Black", "citiesVisited": ["Tokyo"], "companion": 7, "favoriteToy": ["name": "Rope"]],
                ["name": "Bella", "age": 3, "color": "white", "citiesVisited": ["Oslo"], "companion": "Rex",
                 "favoriteToy": ["name": "Rope [x]"]],
                ["name": "Stray", "age": 12, "color": "brown", "citiesVisited": ["Bergen", "Oslo", "Paris"], "companion": 7.5],
                ["name": "Ghost", "age": 0, "companion": nil],
            ].map { try realm.create("Dog", value: .map($0)).ref }
            func dogs(_ indexes: Int...) -> Value { .list(indexes.map { .object(dogRefs[$0]) }) }
            let alice = try realm.create("Person", value: [
                "name": "Alice", "createdAt": createdAt[0], "address": ["city": "Oslo", "country": "Norway"], "dogs": dogs(0, 1)])
            let bob = try realm.create("Person", value: ["name": "Bob", "createdAt": createdAt[1], "dogs": dogs(0, 2)])
            let chen = try realm.create("Person", value: ["name": "Chen", "createdAt": createdAt[2], "address": ["city": "Trondheim"]])
            let dana = try realm.create("Person", value: ["name": "dana", "createdAt": createdAt[3], "address": ["street": "Elm"], "dogs": dogs(3)])
            let emile = try realm.create("Person", value: ["name": "Émile", "createdAt": createdAt[4], "dogs": dogs(1)])
            try alice.setValue(.object(bob.ref), forKey: "bestFriend")
            try bob.setValue(.object(alice.ref), forKey: "bestFriend")
            try dana.setValue(.object(chen.ref), forKey: "bestFriend")
            try emile.setValue(.object(dana.ref), forKey: "bestFriend")
            try realm.create("DogClub", value: ["name": "Walkers", "members": [.object(alice.ref), .object(bob.ref)]])
            try realm.create("DogClub", value: ["name": "Empty"])
        }
    }

    static func date(_ iso: String) throws -> Value {
        .date(DateFormatting.date(milliseconds: try #require(DateFormatting.parseISO8601(iso))))
    }

    func names(_ type: String, _ predicate: String?, sortedBy: String? = nil, limit: Int? = nil) throws -> [String] {
        try realm.objects(type, where: predicate, sortedBy: sortedBy, limit: limit).map { object in
            guard case .string(let name) = try object["name"] else { return "<no name>" }
            return name
        }
    }

    func expectMatches(_ type: String, _ cases: KeyValuePairs<String, [String]>, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        for (predicate, expected) in cases {
            #expect(try names(type, predicate) == expected, "\(type) where \(predicate)", sourceLocation: sourceLocation)
        }
    }

    func ownersOfDogsAgedThreeOrMoreBothWays() throws {
        try expectMatches("Person", [
            "ANY dogs.age >= 3": ["Alice", "Bob", "dana"],
            "dogs.age >= 3": ["Alice", "Bob", "dana"],
            "SOME dogs.age >= 3": ["Alice", "Bob", "dana"],
        ])
        try expectMatches("Dog", [
            "ANY owners.name == 'Alice'": ["Rex", "Fido"],
            "owners.name == 'Émile'": ["Fido"],
            "age >= 3 AND owners.@count > 0": ["Rex", "Maui", "Bella"],
            "ANY owners.bestFriend.name == 'Alice'": ["Rex", "Maui"],
        ])
        try expectMatches("Person", [
            "ANY dogs.owners.name == 'Émile'": ["Alice", "Émile"],
        ])
        try expectMatches("DogClub", [
            "ANY members.dogs.name == 'Maui'": ["Walkers"],
            "members.@count == 0": ["Empty"],
        ])
    }

    func allAndNoneQuantifiers() throws {
        try expectMatches("Person", [
            "ALL dogs.age >= 3": ["Bob", "Chen", "dana"],
            "NONE dogs.age >= 3": ["Chen", "Émile"],
            "NOT ANY dogs.age >= 3": ["Chen", "Émile"],
            "NOT ALL dogs.age >= 3": ["Alice", "Émile"],
        ])
        try expectMatches("Dog", [
            "ALL citiesVisited == 'Oslo'": ["Fido", "Bella", "Ghost"],
            "NONE citiesVisited BEGINSWITH 'B'": ["Fido", "Maui", "Bella", "Ghost"],
            "ALL owners.name != nil": ["Rex", "Fido", "Maui", "Bella", "Stray", "Ghost"],
        ])
        try expectMatches("DogClub", [
            "ALL members.name BEGINSWITH 'A'": ["Empty"],
        ])
    }

    func countsOfListsSetsMapsAndBacklinks() throws {
        try expectMatches("Person", [
            "dogs.@count > 1": ["Alice", "Bob"],
            "dogs.@count == 0": ["Chen"],
            "dogs.@count BETWEEN {1, 1}": ["dana", "Émile"],
            "bestFriend.dogs.@count == 2": ["Alice", "Bob"],
        ])
        try expectMatches("Dog", [
            "owners.@count == 0": ["Stray", "Ghost"],
            "owners.@count == 2": ["Rex", "Fido"],
            "citiesVisited.@count >= 2": ["Rex", "Stray"],
            "favoriteParksByCity.@count == 1": ["Rex"],
            "ANY favoriteParksByCity == 'Frognerparken'": ["Rex"],
            "ANY favoriteParksByCity.@keys == 'Oslo'": ["Rex"],
        ])
    }

    func toOneChainsAndNulls() throws {
        try expectMatches("Person", [
            "bestFriend.name == 'Alice'": ["Bob"],
            "bestFriend.bestFriend.name == 'Chen'": ["Émile"],
            // A null link anywhere in the chain makes the value null.
            "bestFriend.bestFriend.name == nil": ["Chen", "dana"],
            "bestFriend.bestFriend.name != nil": ["Alice", "Bob", "Émile"],
            "bestFriend == nil": ["Chen"],
            "bestFriend != nil": ["Alice", "Bob", "dana", "Émile"],
            "address.city == nil": ["Bob", "dana", "Émile"],
            "address.city != 'Oslo'": ["Bob", "Chen", "dana", "Émile"],
            "address.street == 'Elm' AND address.city == nil": ["dana"],
            "bestFriend.address.city == 'Oslo'": ["Bob"],
        ])
        try expectMatches("Dog", [
            "favoriteToy.name == nil": ["Fido", "Stray", "Ghost"],
            "favoriteToy == nil": ["Fido", "Stray", "Ghost"],
            "color != 'brown'": ["Fido", "Maui", "Bella", "Ghost"],
            "color == nil": ["Fido", "Ghost"],
            "color < 'c'": ["Rex", "Maui", "Stray"],
        ])
    }

    func stringOperatorsAreExactAndCaseSensitiveUnlessC() throws {
        try realm.write {
            try realm.create("Dog", value: ["name": "100%_dog", "age": 2])
            try realm.create("Dog", value: ["name": "O'Brien \"Bo\"", "age": 2])
        }
        try expectMatches("Dog", [
            "color == 'brown'": ["Rex", "Stray"],
            "color == 'BROWN'": [],
            "color ==[c] 'BROWN'": ["Rex", "Stray"],
            "color !=[c] 'BROWN'": ["Fido", "Maui", "Bella", "Ghost", "100%_dog", "O'Brien \"Bo\""],
            "color BEGINSWITH 'b'": ["Rex", "Stray"],
            "color BEGINSWITH[c] 'b'": ["Rex", "Maui", "Stray"],
            "color ENDSWITH 'ck'": ["Maui"],
            "color ENDSWITH 'CK'": [],
            "color CONTAINS[c] 'HIT'": ["Bella"],
            "color CONTAINS ''": ["Rex", "Maui", "Bella", "Stray"],
            // SQL wildcards are plain characters here.
            "name CONTAINS '%'": ["100%_dog"],
            "name CONTAINS '_'": ["100%_dog"],
            "name BEGINSWITH '100%'": ["100%_dog"],
            "name ENDSWITH '_dog'": ["100%_dog"],
            "name LIKE 'R_x'": [],
            "name LIKE 'R?x'": ["Rex"],
            "name LIKE '*a*'": ["Maui", "Bella", "Stray"],
            "name LIKE[c] 'f*'": ["Fido"],
            "name LIKE 'f*'": [],
            "favoriteToy.name LIKE 'Rope [x]'": ["Bella"],
            "favoriteToy.name LIKE 'Rop?'": ["Maui"],
            "name == 'O\\'Brien \"Bo\"'": ["O'Brien \"Bo\""],
            "name == \"O'Brien \\\"Bo\\\"\"": ["O'Brien \"Bo\""],
        ])
        try expectMatches("Person", [
            "name ==[c] 'DANA'": ["dana"],
            "name == 'DANA'": [],
            // [c] folds beyond ASCII.
            "name BEGINSWITH[c] 'é'": ["Émile"],
            "name BEGINSWITH 'é'": [],
            "name ==[c] 'ÉMILE'": ["Émile"],
        ])
    }

    func inBetweenAndComparisonsWithTheValueFirst() throws {
        try expectMatches("Dog", [
            "age BETWEEN {1, 3}": ["Rex", "Fido", "Bella"],
            "age IN {0, 7}": ["Maui", "Ghost"],
            "age IN {}": [],
            "color IN {'white', nil}": ["Fido", "Bella", "Ghost"],
            "color IN[c] {'WHITE', 'black'}": ["Maui", "Bella"],
            "3 <= age": ["Rex", "Maui", "Bella", "Stray"],
            "'Oslo' IN citiesVisited": ["Rex", "Bella", "Stray"],
            "ANY citiesVisited == 'Oslo'": ["Rex", "Bella", "Stray"],
            "citiesVisited IN {'Tokyo', 'Paris'}": ["Maui", "Stray"],
            "name IN {'Rex', 'Zed'} OR age == 12": ["Rex", "Stray"],
        ])
    }

    func logicFollowsPrecedenceAndKeywordsIgnoreCase() throws {
        try expectMatches("Person", [
            // AND binds tighter than OR: dana has one dog, so only Chen matches.
            "name == 'Chen' OR name == 'dana' AND dogs.@count == 5": ["Chen"],
            "(name == 'Chen' OR name == 'dana') AND dogs.@count == 1": ["dana"],
            "NOT (name == 'Alice' OR name == 'Bob')": ["Chen", "dana", "Émile"],
            "not name == 'Alice' and not name == 'Bob'": ["Chen", "dana", "Émile"],
            "!(name == 'Alice') && name != 'Bob' || name = 'Bob'": ["Bob", "Chen", "dana", "Émile"],
            "NOT NOT name == 'Alice'": ["Alice"],
            "TRUEPREDICATE": ["Alice", "Bob", "Chen", "dana", "Émile"],
            "FALSEPREDICATE OR name <> 'Alice' AND name =< 'C'": ["Bob"],
        ])
    }

    func datesFromISOStringsAndRealmTimestamps() throws {
        try expectMatches("Person", [
            "createdAt BETWEEN {'2024-01-01T00:00:00Z', '2024-03-01T23:59:59Z'}": ["Alice", "Chen"],
            "createdAt < T1704067200:0": ["dana"],
            "createdAt == '2023-12-31T23:59:59.999Z'": ["dana"],
            "createdAt >= 2024-03-02@00:00:00": ["Bob", "Émile"],
            "createdAt > 2024-03-01T12:00:00Z": ["Bob", "Émile"],
            "createdAt < '2024-01-01'": ["dana"],
        ])
    }

    func mixedValuesCompareWithValuesOfTheirKind() throws {
        try expectMatches("Dog", [
            "companion == 7": ["Maui"],
            "companion == 7.0": ["Maui"],
            "companion == 7.5": ["Stray"],
            "companion > 7": ["Stray"],
            "companion == 'Rex'": ["Bella"],
            "companion ==[c] 'rex'": ["Bella"],
            "companion BEGINSWITH 'R'": ["Bella"],
            "companion == nil": ["Ghost"],
            "companion != nil": ["Rex", "Fido", "Maui", "Bella", "Stray"],
            "companion != 7": ["Rex", "Fido", "Bella", "Stray", "Ghost"],
            "companion == true": [],
            "companion IN {7, 'Rex'}": ["Maui", "Bella"],
        ])
    }

    func sortingIsStableAndLimitsApply() throws {
        #expect(try names("Dog", nil, sortedBy: "age desc") == ["Stray", "Maui", "Rex", "Bella", "Fido", "Ghost"])
        #expect(try names("Dog", nil, sortedBy: "age DESC", limit: 3) == ["Stray", "Maui", "Rex"])
        #expect(try names("Dog", nil, sortedBy: "age") == ["Ghost", "Fido", "Rex", "Bella", "Maui", "Stray"])
        // Nulls first when ascending (as Realm), byte order of strings, then the second key.
        #expect(try names("Dog", nil, sortedBy: "color, name") == ["Fido", "Ghost", "Maui", "Rex", "Stray", "Bella"])
        #expect(try names("Dog", nil, sortedBy: "color asc, name descending") == ["Ghost", "Fido", "Maui", "Stray", "Rex", "Bella"])
        // Through a to-one link; objects without a toy come last when descending.
        #expect(try names("Dog", nil, sortedBy: "favoriteToy.name desc") == ["Rex", "Bella", "Maui", "Fido", "Stray", "Ghost"])
        #expect(try names("Person", nil, sortedBy: "bestFriend.name, name desc") == ["Chen", "Bob", "Alice", "dana", "Émile"])
        #expect(try names("Person", nil, sortedBy: "dogs.@count desc") == ["Alice", "Bob", "dana", "Émile", "Chen"])
        #expect(try names("Dog", "age >= 1", sortedBy: "age", limit: 2) == ["Fido", "Rex"])
        #expect(try names("Dog", "age >= 1", limit: 0) == [])
        #expect(try names("Dog", nil, limit: 2) == ["Rex", "Fido"])
        #expect(try realm.count("Dog", where: "age >= 3") == 4)
        #expect(try realm.count("Dog", where: nil) == 6)
    }

    func deleteWhereDeletesTheMatchesInOneWrite() throws {
        expectKuraError(.store) { try realm.delete("Dog", where: "age >= 3") }
        // A failure later in the write takes the deletion back with it.
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try realm.write {
                #expect(try realm.delete("Dog", where: nil) == 6)
                throw Abandon()
            }
        }
        #expect(try realm.count("Dog") == 6)
        #expect(throws: KuraError.query(.unknownProperty, "Dog has no property 'agee' (did you mean 'age'?)", in: .where, column: 1)) {
            try realm.write { try realm.delete("Dog", where: "agee > 1") }
        }
        #expect(try realm.write { try realm.delete("Dog", where: "age >= 3") } == 4)
        #expect(try names("Dog", nil) == ["Fido", "Ghost"])
        #expect(try names("Person", "dogs.@count == 0") == ["Bob", "Chen", "dana"])
        #expect(try names("Person", "ANY dogs.name == 'Fido'") == ["Alice", "Émile"])
    }

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

/// The cases of `QueryCases`, each run on every engine that does not need an SQLite file.
@Suite struct QueryTests {
    @Test(arguments: RealmEngine.tested) func ownersOfDogsAgedThreeOrMoreBothWays(on engine: RealmEngine) throws {
        try QueryCases(engine).ownersOfDogsAgedThreeOrMoreBothWays()
    }
    @Test(arguments: RealmEngine.tested) func allAndNoneQuantifiers(on engine: RealmEngine) throws {
        try QueryCases(engine).allAndNoneQuantifiers()
    }
    @Test(arguments: RealmEngine.tested) func countsOfListsSetsMapsAndBacklinks(on engine: RealmEngine) throws {
        try QueryCases(engine).countsOfListsSetsMapsAndBacklinks()
    }
    @Test(arguments: RealmEngine.tested) func toOneChainsAndNulls(on engine: RealmEngine) throws {
        try QueryCases(engine).toOneChainsAndNulls()
    }
    @Test(arguments: RealmEngine.tested) func stringOperatorsAreExactAndCaseSensitiveUnlessC(on engine: RealmEngine) throws {
        try QueryCases(engine).stringOperatorsAreExactAndCaseSensitiveUnlessC()
    }
    @Test(arguments: RealmEngine.tested) func inBetweenAndComparisonsWithTheValueFirst(on engine: RealmEngine) throws {
        try QueryCases(engine).inBetweenAndComparisonsWithTheValueFirst()
    }
    @Test(arguments: RealmEngine.tested) func logicFollowsPrecedenceAndKeywordsIgnoreCase(on engine: RealmEngine) throws {
        try QueryCases(engine).logicFollowsPrecedenceAndKeywordsIgnoreCase()
    }
    @Test(arguments: RealmEngine.tested) func datesFromISOStringsAndRealmTimestamps(on engine: RealmEngine) throws {
        try QueryCases(engine).datesFromISOStringsAndRealmTimestamps()
    }
    @Test(arguments: RealmEngine.tested) func mixedValuesCompareWithValuesOfTheirKind(on engine: RealmEngine) throws {
        try QueryCases(engine).mixedValuesCompareWithValuesOfTheirKind()
    }
    @Test(arguments: RealmEngine.tested) func sortingIsStableAndLimitsApply(on engine: RealmEngine) throws {
        try QueryCases(engine).sortingIsStableAndLimitsApply()
    }
    @Test(arguments: RealmEngine.tested) func deleteWhereDeletesTheMatchesInOneWrite(on engine: RealmEngine) throws {
        try QueryCases(engine).deleteWhereDeletesTheMatchesInOneWrite()
    }
    @Test func badPredicatesAreRefusedWithTheirColumn() throws {
        try QueryCases(.sqlite).badPredicatesAreRefusedWithTheirColumn()
    }
    @Test func badSortKeysLimitsAndTypesAreRefused() throws {
        try QueryCases(.sqlite).badSortKeysLimitsAndTypesAreRefused()
    }
    @Test func nestingIsBoundedAndLongPredicatesRun() throws {
        try QueryCases(.sqlite).nestingIsBoundedAndLongPredicatesRun()
    }
    @Test func chainsOfAHundredThousandComparisonsRun() throws {
        try QueryCases(.sqlite).chainsOfAHundredThousandComparisonsRun()
    }
}
