import Foundation
import Kura
import KuraTestSupport
import Testing

/// The walk through `Samples/` of docs/tour.md, run as commands on a realm in a temporary folder.
@Suite struct SamplesTests {
    let kura = Fixtures.executable("kura")

    func sample(_ name: String) -> String { Fixtures.packageRoot.appendingPathComponent("Samples/\(name)").path }

    @Test func everySampleImportsAndTheRealmRoundTrips() throws {
        let folder = try Fixtures.temporaryDirectory()
        let realm = folder.appendingPathComponent("samples.realm").path
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", sample("schema.yaml")]).status == 0)
        for (file, type) in [("people.json", "Person"), ("people.jsonl", "Person"), ("dogs.yaml", nil), ("friends.json", nil)] {
            let result = try Fixtures.run(kura, ["import", realm, sample(file)] + (type.map { ["--type", $0] } ?? []))
            #expect(result.status == 0, "\(file): \(result.stderr)")
        }
        let checked = try Fixtures.run(kura, ["check", realm])
        #expect(checked.stdout == "\(realm): ok (29 objects in 5 types, schema version 1)\n")
        let opened = try Realm(path: realm)
        #expect(try opened.count("Person") == 13)
        #expect(try opened.count("DogClub") == 2)
        // dogs.yaml: Bella is one dog with two owners, Rope one toy of two dogs.
        let bella = try opened.objects("Dog").first { try $0["name"] == .string("Bella") }
        #expect(try bella?.linkingObjects("owners").count == 2)
        #expect(try opened.objects("DogToy").filter { try $0["name"] == .string("Rope") }.count == 1)
        // friends.json: Nora → Ola → Pia → Nora.
        let nora = try opened.object(ofType: "Person", forPrimaryKey: .int(20))
        #expect(try nora?.link("bestFriend")?.link("bestFriend")?.link("bestFriend")?.ref == nora?.ref)

        let bad = try Fixtures.run(kura, ["import", realm, sample("bad-people.json"), "--type", "Person"])
        #expect(bad.status == 65)
        #expect(bad.stderr == "kura: \(sample("bad-people.json")):2:63: error: $[0].dogs[0].age: expected int, found string \"three\"\n")

        let exported = folder.appendingPathComponent("all.yaml").path
        #expect(try Fixtures.run(kura, ["export", realm, "-o", exported]).status == 0)
        let again = folder.appendingPathComponent("again.realm").path
        #expect(try Fixtures.run(kura, ["init", again, "--schema", sample("schema.yaml")]).status == 0)
        #expect(try Fixtures.run(kura, ["import", again, exported]).status == 0)
        let second = try Fixtures.run(kura, ["export", again, "--format", "yaml"])
        #expect(second.stdout == (try String(contentsOfFile: exported, encoding: .utf8)))
        #expect(try Fixtures.run(kura, ["check", again]).stdout == "\(again): ok (29 objects in 5 types, schema version 1)\n")
    }
}
