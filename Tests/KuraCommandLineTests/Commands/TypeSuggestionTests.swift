import Foundation
@testable import Kura
import KuraTestSupport
import Testing

/// A type name the realm does not have lists the realm's types and suggests the closest, wherever a
/// type is named: `--type` of import, export, copy and delete, a document's `"$type"`, the Swift API.
@Suite struct TypeSuggestionTests: SamplesRealmSuite {
    let samples: SamplesRealmFolder
    static let types = "types: Address, Dog, DogClub, DogToy, Person"

    init() throws { samples = try SamplesRealmFolder() }

    @Test func closestNameFirstByCaseThenByEditDistance() {
        let names = ["Person", "Dog", "DogToy", "DogClub", "Address"]
        #expect(TypeSuggestion(for: "Persn", among: names).closest == "Person")  // a letter left out
        #expect(TypeSuggestion(for: "Pesron", among: names).closest == "Person")  // two letters swapped
        #expect(TypeSuggestion(for: "Persoon", among: names).closest == "Person")  // a letter too many
        #expect(TypeSuggestion(for: "person", among: names).closest == "Person")
        #expect(TypeSuggestion(for: "DOGTOY", among: names).closest == "DogToy")
        #expect(TypeSuggestion(for: "Dgo", among: names).closest == "Dog")
        #expect(TypeSuggestion(for: "DogClb", among: names).closest == "DogClub")
        #expect(TypeSuggestion(for: "Adress", among: names).closest == "Address")
        // Too far from every name to be a typo of one.
        #expect(TypeSuggestion(for: "Cat", among: names).closest == nil)
        #expect(TypeSuggestion(for: "Car", among: names).closest == nil)
        #expect(TypeSuggestion(for: "Invoice", among: names).closest == nil)
        #expect(TypeSuggestion(for: "", among: names).closest == nil)
        #expect(TypeSuggestion(for: String(repeating: "Person", count: 10_000), among: names).closest == nil)
        // A case-insensitive match beats a closer spelling; ties go to the first alphabetically.
        #expect(TypeSuggestion(for: "dog", among: ["Dot", "DOG"]).closest == "DOG")
        #expect(TypeSuggestion(for: "Dox", among: ["Dot", "Dog"]).closest == "Dog")
    }

    @Test func theMessageListsTheTypesSortedAndCountsThoseBeyondTwenty() {
        #expect(TypeSuggestion(for: "Persn", among: ["Person", "Dog", "DogToy"]).message(in: "the realm")
            == "no type 'Persn' in the realm (did you mean 'Person'? types: Dog, DogToy, Person)")
        #expect(TypeSuggestion(for: "Cat", among: ["Person", "Dog"]).message(in: "the schema")
            == "no type 'Cat' in the schema (types: Dog, Person)")
        #expect(TypeSuggestion(for: "Cat", among: []).message(in: "the realm") == "no type 'Cat' in the realm (there are no types)")
        let many = (1...25).map { "T\($0 + 100)" }
        #expect(TypeSuggestion(for: "T1OO", among: many).message(in: "the realm")
            == "no type 'T1OO' in the realm (types: \(many.prefix(20).joined(separator: ", ")) and 5 more)")
        #expect(TypeSuggestion(for: "a\nb", among: ["A"]).message(in: "the realm") == "no type 'a\\nb' in the realm (types: A)")
    }

    @Test func everyCommandNamingATypeSuggestsOne() throws {
        let input = try file("p.json", #"[{"name": "Ann"}]"#)
        let cases: [([String], String)] = [
            (["import", realmPath, input, "--type", "Persn"], "kura: \(input): error: no type 'Persn' in the realm"),
            (["export", realmPath, "--type", "Persn"], "kura: error: no type 'Persn' in the realm"),
            (["delete", realmPath, "--type", "Persn"], "kura: error: no type 'Persn' in the realm"),
            (["copy", realmPath, folder.appendingPathComponent("copy.realm").path, "--type", "Persn"],
             "kura: error: no type 'Persn' in the source realm"),
        ]
        for (arguments, start) in cases {
            let result = try Fixtures.run(kura, arguments)
            #expect(result.status == 64, "\(arguments[0])")
            #expect(result.stderr == "\(start) (did you mean 'Person'? \(Self.types))\n")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("copy.realm").path))
    }

    @Test func aDocumentsTypeSuggestsOne() throws {
        let tagged = try file("tagged.json", #"[{"$type": "Person", "name": "Ann"}, {"$type": "persn", "name": "Bob"}]"#)
        let result = try Fixtures.run(kura, ["import", realmPath, tagged])
        #expect(result.status == 65)
        #expect(result.stderr == "kura: \(tagged):1:48: error: $[1].$type: no type 'persn' in the realm (did you mean 'Person'? \(Self.types))\n")
        let counters = try file("counters.json", #"[{"$realm": {"autoIncrement": {"Persn": 5}}}]"#)
        let counted = try Fixtures.run(kura, ["import", realmPath, counters])
        #expect(counted.status == 65)
        #expect(counted.stderr == """
            kura: \(counters):1:2: error: $[0].$realm.autoIncrement.Persn: no type 'Persn' in the realm \
            (did you mean 'Person'? \(Self.types))

            """)
        // A mixed value links only to top-level types, so only those are offered.
        let mixed = try file("dog.json", #"{"name": "Rex", "age": 3, "companion": {"$type": "Adress", "$key": 1}}"#)
        let linked = try Fixtures.run(kura, ["import", realmPath, mixed, "--type", "Dog"])
        #expect(linked.status == 65)
        #expect(linked.stderr.hasPrefix(
            "kura: \(mixed):1:50: error: $[0].companion.$type: no type 'Adress' in the schema (types: Dog, DogClub, DogToy, Person)\n"))
    }

    @Test func theSwiftAPISuggestsOne() throws {
        let realm = try Realm(path: realmPath)
        #expect(throws: KuraError.store(.unknownType, "no type 'Dgo' in the realm (did you mean 'Dog'? \(Self.types))")) {
            try realm.objects("Dgo")
        }
        #expect(throws: KuraError.query(.unknownType, "no type 'Persn' in the realm (did you mean 'Person'? \(Self.types))")) {
            try realm.count("Persn", where: "name == 'Ann'")
        }
        #expect(throws: KuraError.store(.unknownType, "no type 'DogToys' in the realm (did you mean 'DogToy'? \(Self.types))")) {
            try realm.write { _ = try realm.create("DogToys", value: ["name": "ball"]) }
        }
    }
}
