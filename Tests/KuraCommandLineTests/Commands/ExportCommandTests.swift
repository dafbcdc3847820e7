import Foundation
import Kura
import KuraTestSupport
import Testing

/// `kura export` run as a program: whole-realm round trips and one-type exports.
@Suite struct ExportCommandTests {
    let folder: URL
    let kura = Fixtures.executable("kura")

    init() throws {
        folder = try Fixtures.temporaryDirectory()
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    @Test(arguments: ["json", "jsonl", "yaml"])
    func wholeRealmExportImportsIntoAnEmptyRealmAndExportsTheSameBytes(format: String) throws {
        let (source, schema) = try GraphFixture.makeRealm(in: folder)
        do {
            // A deletion leaves the autoIncrement counter above the keys present; the export keeps it.
            let realm = try Realm(path: source)
            try realm.write {
                guard let gone = try realm.object(ofType: "Owner", forPrimaryKey: .int(3)) else { throw CancellationError() }
                try realm.delete(gone)
            }
        }
        let first = try Fixtures.run(kura, ["export", source, "--output", path("first.\(format)")])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == "Exported 6 documents (Node: 4, Owner: 2), \(try read("first.\(format)").count) bytes to \(path("first.\(format)"))\n")
        #expect(try Fixtures.run(kura, ["init", path("copy.realm"), "--schema", schema]).status == 0)
        let imported = try Fixtures.run(kura, ["import", path("copy.realm"), path("first.\(format)")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try Fixtures.run(kura, ["export", path("copy.realm"), "--output", path("second.\(format)")]).status == 0)
        #expect(try read("first.\(format)") == read("second.\(format)"))

        let copy = try Realm(path: path("copy.realm"))
        let original = try Realm(path: source)
        for type in ["Owner", "Node", "Spot"] { #expect(try copy.count(type) == original.count(type)) }
        try expectSameShape(copy)
        // The counter came along: the next key is 4, not 3.
        let next = try copy.write { try copy.create("Owner", value: .map(["name": .string("New")])) }
        #expect(try next["id"] == .int(4))
    }

    /// Cycles, shared objects and links in mixed values are the same objects after the round trip.
    private func expectSameShape(_ realm: Realm) throws {
        guard let ann = try realm.object(ofType: "Owner", forPrimaryKey: .int(1)),
            let bo = try realm.object(ofType: "Owner", forPrimaryKey: .int(2))
        else {
            Issue.record("owners missing")
            return
        }
        let annNodes = Array(try ann.objects("nodes"))
        let boNodes = Array(try bo.objects("nodes"))
        #expect(annNodes.count == 2 && boNodes.count == 1)
        #expect(annNodes.first?.ref == boNodes.first?.ref)
        #expect(try ann["favorite"] == .object(boNodes[0].ref))
        #expect(try bo["favorite"] == .object(ann.ref))
        #expect(try ann.link("rival")?.ref == bo.ref && bo.link("rival")?.ref == ann.ref)
        let loop = annNodes[1]
        #expect(try loop.link("next")?.ref == loop.ref)
        let cycleA = try realm.objects("Node").first { try $0["name"] == .string("cycleA") }
        #expect(try cycleA?.link("next")?.link("next")?.ref == cycleA?.ref)
        var chain = try realm.objects("Node").first { try $0["name"] == .string("chain0") }
        var length = 0
        while let node = chain {
            length += 1
            chain = try node.link("next")
        }
        #expect(length == 100)
    }

    @Test func theSamplesRoundTripInEveryFormat() throws {
        let realm = path("people.realm")
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        let samples = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        #expect(try Fixtures.run(kura, ["import", realm, samples, "--type", "Person"]).status == 0)
        for format in ["json", "jsonl", "yaml"] {
            #expect(try Fixtures.run(kura, ["export", realm, "-o", path("a.\(format)")]).status == 0)
            let again = path("again-\(format).realm")
            #expect(try Fixtures.run(kura, ["init", again, "--schema", Fixtures.samplesSchemaPath]).status == 0)
            #expect(try Fixtures.run(kura, ["import", again, path("a.\(format)")]).status == 0)
            #expect(try Fixtures.run(kura, ["export", again, "-o", path("b.\(format)")]).status == 0)
            #expect(try read("a.\(format)") == read("b.\(format)"), "\(format)")
        }
    }

    /// `-o -` names standard output, as leaving `--output` out does; the format is then `--format`'s or JSON.
    @Test func dashOutputIsStandardOutput() throws {
        let realm = path("people.realm")
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        let samples = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        #expect(try Fixtures.run(kura, ["import", realm, samples, "--type", "Person"]).status == 0)
        #expect(try Fixtures.run(kura, ["export", realm, "-o", path("file.json")]).status == 0)
        let dashed = try Fixtures.run(kura, ["export", realm, "-o", "-"])
        #expect(dashed.status == 0, "\(dashed.stderr)")
        #expect(Data(dashed.stdout.utf8) == (try read("file.json")))
        let bytes = try read("file.json").count
        #expect(dashed.stderr == "Exported 3 documents (Person: 3), \(bytes) bytes\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path))
        let yaml = try Fixtures.run(kura, ["export", realm, "-o", "-", "--format", "yaml"])
        #expect(yaml.status == 0 && yaml.stdout.hasPrefix("---"), "\(yaml.stderr)")
    }

    @Test func oneTypeExportsPlainDocumentsThatImportWithType() throws {
        let realm = path("people.realm")
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        let samples = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        #expect(try Fixtures.run(kura, ["import", realm, samples, "--type", "Person"]).status == 0)
        let people = try Fixtures.run(kura, ["export", realm, "--type", "Person", "--format", "jsonl", "--limit", "2"])
        #expect(people.status == 0)
        let lines = people.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { !$0.contains("\"$type\"") })
        #expect(lines.first?.hasPrefix(#"{"id":1,"name":"Alice","dogs":[{"$id":"Dog-1","name":"Rex","age":3,"#) == true)

        #expect(try Fixtures.run(kura, ["export", realm, "--type", "Dog", "-o", path("dogs.json")]).status == 0)
        // Rex is Alice's and Bob's, but persons are not in a dogs export: no dog needs an "$id".
        let dogs = try String(contentsOfFile: path("dogs.json"), encoding: .utf8)
        #expect(dogs.hasPrefix(#"[\#n{"name":"Rex","age":3,"color":"brown","#), "\(dogs)")
        #expect(!dogs.contains("$id"))
        let fresh = path("dogs.realm")
        #expect(try Fixtures.run(kura, ["init", fresh, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        let imported = try Fixtures.run(kura, ["import", fresh, path("dogs.json"), "--type", "Dog"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try Realm(path: fresh).count("Dog") == Realm(path: realm).count("Dog"))
    }

    /// An object a selection's documents reach twice (here through a mixed value) gets an "$id";
    /// one reached once does not.
    @Test func aSelectionNamesWhatItsDocumentsReachTwice() throws {
        let schema = path("boxes.yaml")
        try """
            schemaVersion: 1
            types:
              Box:
                properties:
                  name: string
                  content: mixed
              Note:
                properties:
                  text: string
                  box: Box?

            """.write(toFile: schema, atomically: true, encoding: .utf8)
        let realm = path("boxes.realm")
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", schema]).status == 0)
        let input = path("boxes.json")
        try #"""
            [{"$id": "a", "name": "A", "content": {"$type": "Note", "text": "inside", "box": {"$ref": "a"}}},
             {"name": "B", "content": {"$type": "Note", "text": "alone"}}]
            """#.write(toFile: input, atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["import", realm, input, "--type", "Box"]).status == 0)
        let result = try Fixtures.run(kura, ["export", realm, "--type", "Box", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"""
            {"$id":"Box-1","name":"A","content":{"$type":"Note","text":"inside","box":{"$ref":"Box-1"}}}
            {"name":"B","content":{"$type":"Note","text":"alone","box":null}}

            """#)
    }

    @Test func ownersOfDogsAgedThreeOrMoreThroughWhere() throws {
        let realm = path("people.realm")
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        for (file, type) in [("people.json", ["--type", "Person"]), ("people.jsonl", ["--type", "Person"]), ("dogs.yaml", [])] {
            let sample = Fixtures.packageRoot.appendingPathComponent("Samples/\(file)").path
            #expect(try Fixtures.run(kura, ["import", realm, sample] + type).status == 0)
        }
        func names(_ arguments: [String]) throws -> [String] {
            let result = try Fixtures.run(kura, ["export", realm, "--format", "jsonl"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return try result.stdout.split(separator: "\n").map { line in
                let document = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return document?["name"] as? String ?? "?"
            }
        }
        // Rex (3) is Alice's and Bob's, Tass (6) Ingrid's, Sky (9) Leif's, Bella (4) Dagny's and Erik's.
        #expect(try names(["--type", "Person", "--where", "ANY dogs.age >= 3", "--sort", "name"])
            == ["Alice", "Bob", "Dagny", "Erik", "Ingrid", "Leif"])
        // The same question asked from the dogs, through the owners backlink.
        #expect(try names(["--type", "Dog", "--where", "age >= 3 AND owners.@count > 0", "--sort", "age desc"])
            == ["Sky", "Tass", "Bella", "Rex"])
        #expect(try names(["--type", "Dog", "--where", "ANY owners.name == 'Alice'"]) == ["Rex"])
        #expect(try names(["--type", "Person", "--where", "ANY dogs.age >= 3", "--sort", "name desc", "--limit", "2"])
            == ["Leif", "Ingrid"])
        // As many comparisons as one command-line argument holds (Linux passes at most 128 KiB).
        let chain = (0..<10_000).map { "age==\($0 + 20)" }.joined(separator: "||") + "||age==9"
        #expect(try names(["--type", "Dog", "--where", chain]) == ["Sky"])
        let bad = try Fixtures.run(kura, ["export", realm, "--type", "Dog", "--where", "agee > 3"])
        #expect(bad.status == 64)
        #expect(bad.stderr == "kura: where: column 1: error: Dog has no property 'agee' (did you mean 'age'?)\n")
    }

    @Test func exitCodesTellUsageAndMissingInput() throws {
        let realm = path("people.realm")
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        let missing = try Fixtures.run(kura, ["export", path("nothere.realm")])
        #expect(missing.status == 66)
        #expect(missing.stderr == "kura: error: no realm at '\(path("nothere.realm"))'\n")
        let unknown = try Fixtures.run(kura, ["export", realm, "--type", "Cat"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "kura: error: no type 'Cat' in the realm (types: Address, Dog, DogClub, DogToy, Person)\n")
        #expect(try Fixtures.run(kura, ["export", realm, "--where", "age > 3"]).status == 64)
        let embedded = try Fixtures.run(kura, ["export", realm, "--type", "Address"])
        #expect(embedded.status == 65)
        #expect(embedded.stderr == "kura: error: Address is embedded: its objects are exported nested in their parents\n")
        let unwritable = try Fixtures.run(kura, ["export", realm, "-o", path("no/such/folder/out.json")])
        #expect(unwritable.status == 74)
        #expect(unwritable.stderr == "kura: error: cannot write the export to '\(path("no/such/folder/out.json"))': no folder '\(path("no/such/folder"))'\n")
        #expect(!FileManager.default.fileExists(atPath: path("no/such/folder/out.json")))
    }
}
