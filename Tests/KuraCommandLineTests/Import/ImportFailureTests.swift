import Foundation
import Kura
import KuraTestSupport
import Testing

/// What an import does when a document's link never resolves (`--on-error skip` sets the document
/// aside, `stop` fails the whole import) and when the disk fails under it (exit 74, never a document's fault).
@Suite struct ImportFailureTests: SamplesRealmSuite {
    let samples: SamplesRealmFolder

    init() throws { samples = try SamplesRealmFolder() }

    func personIds() throws -> [Int64] {
        try Realm(path: realmPath).objects("Person").map { try $0.value(forKey: "id") }.compactMap {
            if case .int(let id) = $0 { return id } else { return nil }
        }.sorted()
    }

    /// Person 2 links to a key no document has, Person 6 too; Persons 1 and 3 link (through 2) to
    /// it; Person 7 links forward to 4, which links forward to 5.
    static let people = """
        {"id": 1, "name": "A", "bestFriend": 2}
        {"id": 2, "name": "B", "bestFriend": 99}
        {"id": 3, "name": "C", "bestFriend": 1}
        {"id": 4, "name": "D", "bestFriend": 5}
        {"id": 5, "name": "E"}
        {"id": 6, "name": "F", "bestFriend": 98}
        {"id": 7, "name": "G", "bestFriend": 4}

        """

    @Test(arguments: [1, 2, 3, 10_000])
    func skipRefusesDocumentsWhoseLinksNeverResolveAndKeepsTheRest(batchSize: Int) throws {
        let input = try file("people.jsonl", Self.people)
        let result = try Fixtures.run(
            kura, ["import", realmPath, input, "--type", "Person", "--on-error", "skip", "--batch-size", "\(batchSize)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Person: 3 inserted, 0 updated, 0 unchanged, 4 rejected\n"))
        #expect(try personIds() == [4, 5, 7])
        let rejects = try String(contentsOfFile: folder.appendingPathComponent("people.rejects.jsonl").path, encoding: .utf8)
        #expect(rejects.split(separator: "\n").sorted() == [
            #"{"$errors":["\#(input):1:1: error: $[0].bestFriend: links to the Person with primary key 2, whose document was refused"],"id":1,"name":"A","bestFriend":2}"#,
            #"{"$errors":["\#(input):2:1: error: $[1].bestFriend: no Person with primary key 99 in the realm or this input"],"id":2,"name":"B","bestFriend":99}"#,
            #"{"$errors":["\#(input):3:1: error: $[2].bestFriend: links to the Person with primary key 1, whose document was refused"],"id":3,"name":"C","bestFriend":1}"#,
            #"{"$errors":["\#(input):6:1: error: $[5].bestFriend: no Person with primary key 98 in the realm or this input"],"id":6,"name":"F","bestFriend":98}"#,
        ])
        #expect(try Fixtures.problems(Realm(path: realmPath)) == [])
    }

    @Test func stopFailsTheWholeImportAtTheDocumentThatLinksNowhere() throws {
        let input = try file("people.jsonl", Self.people)
        let result = try Fixtures.run(kura, ["import", realmPath, input, "--type", "Person", "--batch-size", "1"])
        #expect(result.status == 65)
        #expect(result.stderr == "kura: \(input):2:1: error: $[1].bestFriend: no Person with primary key 99 in the realm or this input\n")
        #expect(try personIds() == [])
    }

    @Test func skipRefusesAReferenceToAnUndefinedIdAndKeepsForwardOnes() throws {
        let input = try file("realm.json", """
            [{"$type": "Person", "id": 1, "name": "A", "dogs": [{"$ref": "rex"}, {"$ref": "nowhere"}]},
             {"$type": "Person", "id": 2, "name": "B", "dogs": [{"$ref": "rex"}]},
             {"$type": "Dog", "$id": "rex", "name": "Rex", "age": 3}]
            """)
        let result = try Fixtures.run(kura, ["import", realmPath, input, "--on-error", "skip", "--batch-size", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try personIds() == [2])
        let realm = try Realm(path: realmPath)
        #expect(try realm.count("Dog") == 1)
        let rejects = try String(contentsOfFile: folder.appendingPathComponent("realm.rejects.jsonl").path, encoding: .utf8)
        #expect(rejects.hasPrefix(
            #"{"$errors":["\#(input):1:2: error: $[0].dogs[1]: {\"$ref\": \"nowhere\"} names no document with \"$id\": \"nowhere\" in this input"]"#))
        #expect(rejects.split(separator: "\n").count == 1)
        #expect(try Fixtures.problems(realm) == [])
    }

    /// Several inputs in one transaction: the first's unresolved link is withdrawn, the second's documents stay.
    @Test func eachInputWithdrawsOnlyItsOwnDocuments() throws {
        let realm = try Realm(path: ":memory:", schema: try Fixtures.samplesSchema())
        let importer = DocumentImporter(realm: realm, options: ImportOptions(type: "Person", onError: .skip))
        var refused: [String] = []
        importer.onReject = { _, errors in refused += errors }
        let first = #"[{"id": 1, "name": "A"}, {"id": 2, "name": "B", "bestFriend": 3}]"#
        let second = #"[{"id": 3, "name": "C", "bestFriend": 1}, {"id": 4, "name": "D", "bestFriend": 5}, {"id": 5, "name": "E"}]"#
        let summary = try importer.run([
            JSONReader(bytes: Array(first.utf8), file: "a.json"), JSONReader(bytes: Array(second.utf8), file: "b.json"),
        ])
        #expect(refused == ["a.json:1:26: error: $[1].bestFriend: no Person with primary key 3 in the realm or this input"])
        #expect(summary.counts["Person"]?.inserted == 4)
        #expect(summary.rejected == ["Person": 1])
        #expect(try realm.objects("Person").map { try $0.value(forKey: "name") } == ["A", "C", "D", "E"])
    }

    /// A document is kept for withdrawal only while at most 10,000 follow it: a link resolved far
    /// ahead still imports, and one never resolved that far back fails the import, saying why.
    @Test func documentsAreHeldForWithdrawalOnlyUpToALimit() throws {
        let count = 10_050
        func people(firstLinksTo target: Int) -> String {
            (1...count).map { id in
                #"{"id": \#(id), "name": "P"\#(id == 1 ? #", "bestFriend": \#(target)"# : "")}"#
            }.joined(separator: "\n") + "\n"
        }
        let forward = try file("forward.jsonl", people(firstLinksTo: count))
        let resolved = try Fixtures.run(kura, ["import", realmPath, forward, "--type", "Person", "--on-error", "skip"])
        #expect(resolved.status == 0, "\(resolved.stderr)")
        #expect(try Realm(path: realmPath).count("Person") == count)
        let nowhere = try file("nowhere.jsonl", people(firstLinksTo: 99_999))
        let failed = try Fixtures.run(kura, ["import", realmPath, nowhere, "--type", "Person", "--on-error", "skip", "--mode", "update"])
        #expect(failed.status == 65)
        #expect(failed.stderr == """
            kura: \(nowhere):1:1: error: $[0].bestFriend: no Person with primary key 99999 in the realm or this input \
            (more than 10000 documents followed it, too many to set it aside)

            """)
    }

    // MARK: A failing disk

    /// Runs `kura` with writes past `blocks` failing (RLIMIT_FSIZE), as a full disk would; `kura`
    /// ignores the limit's signal itself, so the write fails with EFBIG instead of killing it.
    func runWithFileSizeLimit(_ arguments: [String], blocks: Int) throws -> (status: Int32, stdout: String, stderr: String) {
        let command = "ulimit -f \(blocks); exec \"$0\" \"$@\""
        return try Fixtures.run("/bin/sh", ["-c", command, kura] + arguments)
    }

    func bigInput() throws -> String {
        var text = ""
        for id in 1...20_000 {
            text += #"{"id": \#(id), "name": "Person \#(id) with a name long enough to fill pages", "#
            text += #""address": {"street": "\#(String(repeating: "x", count: 100))", "city": "Oslo"}}"# + "\n"
        }
        return try file("big.jsonl", text)
    }

    @Test func aDiskFailureStopsAStopImportWithExit74AndNothingCommitted() throws {
        let input = try bigInput()
        let result = try runWithFileSizeLimit(["import", realmPath, input, "--type", "Person"], blocks: 2000)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("kura: error: SQLite error "))
        #expect(result.stderr.hasSuffix("; nothing was committed\n"))
        #expect(!result.stderr.contains(input))
        #expect(try personIds() == [])
    }

    @Test func aDiskFailureStopsASkipImportSayingWhatWasCommittedAndRejectsNothing() throws {
        let input = try bigInput()
        let result = try runWithFileSizeLimit(
            ["import", realmPath, input, "--type", "Person", "--on-error", "skip", "--batch-size", "1000"], blocks: 2000)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("kura: error: SQLite error "))
        let note = try #require(result.stderr.firstMatch(of: /; (\d+) documents in (\d+) batches were committed before the failure\n$/))
        let committed = try #require(Int(note.1))
        #expect(committed > 0 && committed < 20_000)
        #expect(Int(note.2) == committed / 1000)
        let realm = try Realm(path: realmPath)
        #expect(try realm.count("Person") == committed)
        #expect(try Fixtures.problems(realm) == [])
        let rejects = folder.appendingPathComponent("big.rejects.jsonl").path
        #expect(((try? Data(contentsOf: URL(fileURLWithPath: rejects))) ?? Data()).isEmpty)
    }

    @Test func aSkipImportThatMeetsBadTextAfterCommittingSaysWhatItCommitted() throws {
        let good = (1...2500).map { #"{"id": \#($0), "name": "P\#($0)"}"# }.joined(separator: "\n")
        let input = try file("cut.jsonl", good + "\n{\"id\": 9999, \"name\": \n")
        let skip = try Fixtures.run(kura, ["import", realmPath, input, "--type", "Person", "--on-error", "skip", "--batch-size", "1000"])
        #expect(skip.status == 65)
        #expect(skip.stderr.hasPrefix("kura: \(input):2501:22: error: line break inside a JSON Lines value; "), "\(skip.stderr)")
        #expect(skip.stderr.hasSuffix("; 2000 documents in 2 batches were committed before the failure\n"), "\(skip.stderr)")
        #expect(try personIds().count == 2000)
        // Under stop nothing was committed, and the message says nothing of it.
        let fresh = try file("cut2.jsonl", good.replacingOccurrences(of: #""id": "#, with: #""id": 10000"#) + "\n{\"id\": 9999, \"name\": \n")
        let stop = try Fixtures.run(kura, ["import", realmPath, fresh, "--type", "Person"])
        #expect(stop.status == 65)
        #expect(!stop.stderr.contains("committed"), "\(stop.stderr)")
        #expect(try personIds().count == 2000)
    }

    @Test func errorsAnOptionMendsSayWhichOption() throws {
        let person = try file("one.json", #"[{"id": 1, "name": "A"}]"#)
        #expect(try Fixtures.run(kura, ["import", realmPath, person, "--type", "Person"]).status == 0)
        let again = try Fixtures.run(kura, ["import", realmPath, person, "--type", "Person"])
        #expect(again.status == 65)
        #expect(again.stderr == "kura: \(person):1:2: error: $[0]: an object of type Person with primary key 1 already exists; give --skip-existing to leave the objects already there, or --mode update to update them\n")
        let dated = try file("dated.json", #"[{"id": 2, "name": "B", "createdAt": "2024-01-01T00:00:00Z"}]"#)
        let plain = try Fixtures.run(kura, ["import", realmPath, dated, "--type", "Person"])
        #expect(plain.status == 65)
        #expect(plain.stderr == "kura: \(dated):1:38: error: $[0].createdAt: expected date, found string \"2024-01-01T00:00:00Z\"; give --date-strategy iso8601 (or dateStrategy in config.yaml) to read ISO-8601 strings as dates\n")
        #expect(try Fixtures.run(kura, ["import", realmPath, dated, "--type", "Person", "--date-strategy", "iso8601"]).status == 0)
    }
}
