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
