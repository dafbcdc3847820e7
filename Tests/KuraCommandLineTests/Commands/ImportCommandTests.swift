import Foundation
import Kura
import KuraTestSupport
import Testing

/// `kura import` run as a program on real files.
@Suite struct ImportCommandTests: SamplesRealmSuite {
    let samples: SamplesRealmFolder

    init() throws { samples = try SamplesRealmFolder() }

    func count(_ type: String) throws -> Int { try Realm(path: realmPath).count(type) }

    @Test func importsAndSummarisesPerType() throws {
        let input = try file("people.json", SampleDocuments.people(20))
        let result = try Fixtures.run(kura, ["import", realmPath, input, "--type", "Person"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            Address: 20 inserted, 0 updated, 0 unchanged
            Dog: 20 inserted, 0 updated, 0 unchanged
            Person: 20 inserted, 0 updated, 0 unchanged
            20 documents, \(SampleDocuments.people(20).count) bytes

            """)
        #expect(try count("Person") == 20)
    }

    /// A replace that leaves out an embedded object deletes it, and the summary says so.
    @Test func theSummaryCountsEmbeddedObjectsAReplaceDeletes() throws {
        let samples = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        #expect(try Fixtures.run(kura, ["import", realmPath, samples, "--type", "Person"]).status == 0)
        let input = try file("ann.json", Array(#"[{"id": 1, "name": "Ann"}]"#.utf8))
        let result = try Fixtures.run(kura, ["import", realmPath, input, "--type", "Person", "--mode", "replace"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            Address: 0 inserted, 0 updated, 0 unchanged, 1 deleted
            Person: 0 inserted, 1 updated, 0 unchanged
            1 document, 26 bytes

            """)
        #expect(try count("Address") == 1)
    }

    /// A YAML alias inside the node its anchor names links back to that object, as `$ref` does to
    /// `$id`; an error in a value reached through an alias is at the alias, naming where the value is.
    @Test func yamlAliasesCloseCyclesAndTheirErrorsAreWhereTheyStand() throws {
        let cycle = try file("narcissus.yaml", Array("&p {id: 50, name: Narcissus, bestFriend: *p}\n".utf8))
        let imported = try Fixtures.run(kura, ["import", realmPath, cycle, "--type", "Person"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try Fixtures.run(kura, ["export", realmPath, "--type", "Person", "--where", "id == 50", "--format", "jsonl"])
        #expect(exported.stdout.hasPrefix(#"{"id":50,"name":"Narcissus","dogs":[],"address":null,"bestFriend":50,"#))
        let aliased = try file("aliased.yaml", Array("- {id: 51, name: &n Ann}\n- {id: 52, name: Bo, dogs: [{name: Rex, age: *n}]}\n".utf8))
        let refused = try Fixtures.run(kura, ["import", realmPath, aliased, "--type", "Person"])
        #expect(refused.status == 65)
        #expect(refused.stderr == "kura: \(aliased):2:46: error: $[1].dogs[0].age: expected int, found string \"Ann\" (through alias *n, from 1:18)\n")
        #expect(try count("Person") == 1)
    }

    @Test func aBadDocumentAtTheEndLeavesTheRealmUnchanged() throws {
        let input = try file("people.json", SampleDocuments.people(10_000, badAt: 10_000))
        let result = try Fixtures.run(kura, ["import", realmPath, input, "--type", "Person"])
        #expect(result.status == 65)
        #expect(result.stderr == "kura: \(input):10000:55: error: $[9999].dogs[0].age: expected int, found string \"three\"\n")
        #expect(try count("Person") == 0)
        #expect(try count("Dog") == 0)
    }

    @Test func skipWritesExactlyTheBadDocumentsToTheRejectsFile() throws {
        var text = ""
        for index in 1...50 {
            let age = index % 10 == 0 ? "\"old\"" : "\(index)"
            text += #"{"name": "P\#(index)", "dogs": [{"name": "D\#(index)", "age": \#(age)}]}"# + "\n"
        }
        let input = try file("people.jsonl", Array(text.utf8))
        let rejects = folder.appendingPathComponent("bad.jsonl").path
        let result = try Fixtures.run(kura, ["import", realmPath, input, "--type", "Person", "--on-error", "skip", "--rejects", rejects])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Person: 45 inserted, 0 updated, 0 unchanged, 5 rejected"))
        #expect(try count("Person") == 45)
        let lines = try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.first == #"{"$errors":["\#(input):10:49: error: $[9].dogs[0].age: expected int, found string \"old\""],"name":"P10","dogs":[{"name":"D10","age":"old"}]}"#)
        // The rejects file, once fixed, imports as it is: its "$errors" notes are skipped.
        let fixed = try file("fixed.jsonl", Array(lines.joined(separator: "\n").replacingOccurrences(of: "\"old\"}", with: "9}").utf8))
        #expect(try Fixtures.run(kura, ["import", realmPath, fixed, "--type", "Person"]).status == 0)
        #expect(try count("Person") == 50)
    }

    @Test func exitCodesTellUsageBadDataAndMissingInput() throws {
        let good = try file("ok.json", Array(#"[{"name": "A"}]"#.utf8))
        let usage = try Fixtures.run(kura, ["import", realmPath, good, "--type", "Person", "--mode", "sideways"])
        #expect(usage.status == 64)
        let noFiles = try Fixtures.run(kura, ["import", realmPath])
        #expect(noFiles.status == 66 || noFiles.status == 64)
        let missing = try Fixtures.run(kura, ["import", realmPath, folder.appendingPathComponent("nothere.json").path, "--type", "Person"])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasSuffix("nothere.json'\n"))
        let unknownType = try Fixtures.run(kura, ["import", realmPath, good, "--type", "Cat"])
        #expect(unknownType.status == 64)
        #expect(unknownType.stderr == "kura: \(good): error: no type 'Cat' in the realm (types: Address, Dog, DogClub, DogToy, Person)\n")
        let syntax = try file("broken.json", Array(#"[{"name": "A"},"#.utf8))
        #expect(try Fixtures.run(kura, ["import", realmPath, syntax, "--type", "Person"]).status == 65)
        #expect(try count("Person") == 0)
    }
}
