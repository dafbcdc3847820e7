import Foundation
@testable import Kura
import KuraTestSupport
import Testing

/// `Results`: lazy, windowed reads, bound placeholders, sorting, chained filters, liveness and errors.
@Suite struct ResultsTests {
    /// A realm file holding `count` pups named `pup00000`…, aged `index % 10`, every third one brown.
    static func pups(_ count: Int) throws -> (Realm, String) {
        let path = try Fixtures.realmPath()
        let realm = try Realm(path: path, schema: try Schema(models: [Pup.self]))
        try realm.write {
            for index in 0..<count {
                let name = "pup" + String(repeating: "0", count: 5 - String(index).count) + String(index)
                try realm.add(Pup(name: name, age: index % 10, color: index % 3 == 0 ? "brown" : nil))
            }
        }
        return (realm, path)
    }

    @Test func countFirstAndPrefixReadAWindowAtMostOfTenThousandObjects() throws {
        let (realm, _) = try Self.pups(10_000)
        let pups = try realm.objects(Pup.self)
        let old = try pups.filter("age >= %@", 5)
        #expect(realm.resultsRowsRead == 0)
        #expect(try pups.count == 10_000)
        #expect(try old.count == 5_000)
        #expect(realm.resultsRowsRead == 0)
        #expect(try pups.first?.name == "pup00000")
        #expect(realm.resultsRowsRead == 100)
        #expect(pups.prefix(50).map(\.name).last == "pup00049")
        #expect(realm.resultsRowsRead == 200)
        #expect(try old[2_501].name == "pup05006")
        #expect(try old.last?.name == "pup09999")
        #expect(realm.resultsRowsRead == 400)
        #expect(try old[2_501].name == "pup05006")
        #expect(realm.resultsRowsRead == 500, "another window was read since, so index 2501's is read again")
        #expect(try old[2_502].name == "pup05007")
        #expect(realm.resultsRowsRead == 500, "the window read last is kept")
        #expect(try pups[150..<250].map(\.name) == (150..<250).map { "pup00" + String($0) })
        #expect(realm.resultsRowsRead == 700)
        var seen = 0
        for pup in old where pup.age >= 5 { seen += 1 }
        #expect(seen == 5_000)
        #expect(realm.resultsRowsRead == 700 + 5_000)
        #expect(old.iterationError == nil)
    }

    @Test func placeholdersAreBoundAsValuesNeverAsText() throws {
        let (realm, _) = try Self.pups(0)
        let tricky = "O'Brien \"%@\" == 'x' OR TRUEPREDICATE"
        try realm.write {
            try realm.add(Pup(name: tricky, age: 4))
            try realm.add(Pup(name: "Rex", age: 4))
            try realm.add(Pup(name: "%@", age: 2, color: "red"))
        }
        let pups = try realm.objects(Pup.self)
        #expect(try pups.filter("name == %@ AND age > %@", tricky, 3).map(\.name) == [tricky])
        #expect(try pups.filter("name == %@", "%@").map(\.age) == [2])
        #expect(try pups.filter("%K == %@", "color", "red").map(\.name) == ["%@"])
        #expect(try pups.filter("name IN %@", ["Rex", "%@", "Nobody"]).map(\.name) == ["Rex", "%@"])
        #expect(try pups.filter("age BETWEEN %@", [3, 4]).count == 2)
        #expect(try pups.filter("color == %@", String?.none).count == 2)
        #expect(try pups.filter("name BEGINSWITH[c] %@", "o'b").count == 1)
        let dynamic = try realm.objects("Pup").filter("name == %@", tricky)
        #expect(try dynamic.count == 1)
        #expect(try dynamic.first?.value(forKey: "name") == .string(tricky))
    }

    @Test func argumentsThatDoNotFitTheirPlaceholdersAreErrorsNamingThem() throws {
        let (realm, _) = try Self.pups(1)
        let pups = try realm.objects(Pup.self)
        func message(_ filter: () throws -> Results<Pup>) -> String? {
            do {
                _ = try filter()
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(message { try pups.filter("name == %@ AND age > %@", "Rex") }
            == "where: column 22: error: placeholder %@ has no argument: 1 argument given for 2 placeholders")
        #expect(message { try pups.filter("age > %@", 3, 4) }
            == "where: error: 2 arguments given for 1 placeholder: argument 2 (int 4) has no placeholder")
        #expect(message { try pups.filter("age > 3", "Rex") }
            == "where: error: 1 argument given for 0 placeholders: argument 1 (string \"Rex\") has no placeholder")
        #expect(message { try pups.filter("%K == 3", 7) } == "where: column 1: error: placeholder %K takes a key path string, not int 7")
        #expect(message { try pups.filter("%K == 3", "age or") }
            == "where: column 1: error: placeholder %K takes a key path such as 'owner.name', not string \"age or\"")
        #expect(message { try pups.filter("name == %@", Value.data(Data([1, 2]))) }
            == "where: column 9: error: placeholder %@ cannot take data of 2 bytes: predicates compare scalar values")
        #expect(message { try pups.filter("age == %@", "three") } == "where: column 8: error: Pup.age: expected int, found string \"three\"")
        do {
            _ = try pups.filter("age >= 3").filter("age >> %@", 3)
            Issue.record("a bad predicate was accepted")
        } catch {
            #expect(error.code == .query(.syntax))
            #expect(error.position?.column == 6)
        }
        #expect(message { try pups.sorted(byKeyPath: "size") } == "sort: column 1: error: Pup has no property 'size' (properties: age, color, name)")
    }

    @Test func sortingBySeveralKeysAndChainedFilters() throws {
        let (realm, _) = try Self.pups(0)
        try realm.write {
            for (name, age, color) in [("Bo", 3, "red"), ("Al", 5, nil), ("Cy", 3, "blue"), ("Di", 5, "red"), ("Ed", 1, "red")] {
                try realm.add(Pup(name: name, age: age, color: color))
            }
        }
        let pups = try realm.objects(Pup.self)
        let byAgeThenName = try pups.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), SortDescriptor(keyPath: "name")])
        #expect(byAgeThenName.map(\.name) == ["Al", "Di", "Bo", "Cy", "Ed"])
        #expect(try pups.sorted(byKeyPath: "name", ascending: false).map(\.name) == ["Ed", "Di", "Cy", "Bo", "Al"])
        let redAndGrown = try pups.filter("color == %@", "red").filter("age >= %@", 3).sorted(byKeyPath: "age")
        #expect(redAndGrown.map(\.name) == ["Bo", "Di"])
        #expect(try redAndGrown.count == 2)
        #expect(try redAndGrown.last?.name == "Di")
        let dynamic = try realm.objects("Pup").filter("color == 'red'").sorted(byKeyPath: "name", ascending: false)
        #expect(try dynamic.map { try $0.value(forKey: "name") } == ["Ed", "Di", "Bo"])
    }

    @Test func resultsReadAfterAWriteSeeTheNewState() throws {
        let (realm, path) = try Self.pups(3)
        let young = try realm.objects(Pup.self).filter("age < %@", 2).sorted(byKeyPath: "name")
        #expect(try young.count == 2)
        #expect(try young.first?.name == "pup00000")
        try realm.write { try realm.add(Pup(name: "aaa", age: 0)) }
        #expect(try young.count == 3)
        #expect(try young.first?.name == "aaa")
        // Another connection to the same file: SQLite's data version tells this one to read again.
        let other = try Realm(path: path)
        try other.write { try other.delete("Pup", where: "name == 'aaa' OR name == 'pup00001'") }
        #expect(try young.count == 1)
        #expect(try young.first?.name == "pup00000")
        #expect(young.map(\.name) == ["pup00000"])
        try realm.write {
            try realm.add(Pup(name: "bbb", age: 1))
            #expect(try young.count == 2, "inside a write, results see its changes")
            try realm.delete(young)
            #expect(try young.isEmpty)
        }
        #expect(try realm.objects(Pup.self).map(\.name) == ["pup00002"])
    }

    @Test func indexesOutsideTheResultsAreTypedErrors() throws {
        let (realm, _) = try Self.pups(2)
        let pups = try realm.objects(Pup.self)
        #expect(throws: KuraError.store(.indexOutOfRange, "index 2 is outside the 2 Pup results")) { try pups[2] }
        #expect(throws: KuraError.store(.indexOutOfRange, "index -1 is outside the 2 Pup results")) { try pups[-1] }
        #expect(try pups[1..<9].map(\.name) == ["pup00001"])
        #expect(try realm.objects(Pup.self).filter("age > 5").first == nil)
        #expect(throws: KuraError.store(.unknownType, "no type 'Cat' in the realm (types: Pup)")) { try realm.objects("Cat") }
    }
}
