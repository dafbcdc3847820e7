import Foundation
@testable import Kura
import KuraTestSupport
import Testing

/// Counts agree in number with their nouns wherever the commands and the library print them:
/// `1 type`, `1 document`, `2 documents`, `0 objects`.
@Suite struct CountedMessagesTests {
    let folder: URL
    let kura = Fixtures.executable("kura")

    init() throws {
        folder = try Fixtures.temporaryDirectory()
    }

    private func file(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theNounIsSingularForOneOnly() {
        #expect(Counted(0, "type").description == "0 types")
        #expect(Counted(1, "type").description == "1 type")
        #expect(Counted(2, "type").description == "2 types")
        #expect(Counted(-1, "byte").description == "-1 bytes")
        #expect(Counted(1, "entry", plural: "entries").description == "1 entry")
        #expect(Counted(3, "entry", plural: "entries").description == "3 entries")
        #expect(Counted(1, "unknown key").noun == "unknown key")
        #expect(Value.data(Data([7])).description == "<1 byte>")
        #expect(Value.data(Data([7, 8])).description == "<2 bytes>")
    }

    @Test func commandsCountOneInTheSingular() throws {
        let schema = try file("one.yaml", "schemaVersion: 1\ntypes:\n  Tag:\n    properties:\n      n: int\n      label: string?\n")
        let realm = folder.appendingPathComponent("one.realm").path
        let created = try Fixtures.run(kura, ["init", realm, "--schema", schema])
        #expect(created.stdout == "\(realm): created with schema version 1, 1 type\n")
        let again = try Fixtures.run(kura, ["init", realm, "--schema", schema])
        #expect(again.stdout == "\(realm): already a realm with this schema (version 1, 1 type)\n")

        let input = try file("one.json", #"{"n": 1, "extra": true}"#)
        let imported = try Fixtures.run(kura, ["import", realm, input, "--type", "Tag"])
        #expect(imported.stdout == "Tag: 1 inserted, 0 updated, 0 unchanged, 1 unknown key ignored\n1 document, 23 bytes\n")

        let output = folder.appendingPathComponent("out.json").path
        let exported = try Fixtures.run(kura, ["export", realm, "--type", "Tag", "-o", output])
        #expect(exported.stderr == "Exported 1 document (Tag: 1), 25 bytes to \(output)\n")

        let checked = try Fixtures.run(kura, ["check", realm])
        #expect(checked.stdout == "\(realm): ok (1 object in 1 type, schema version 1)\n")

        let changed = try file("two.yaml", "schemaVersion: 2\ntypes:\n  Tag:\n    properties:\n      n: string\n      label: string?\n")
        let typeChange = try Fixtures.run(kura, ["migrate", realm, "--schema", changed, "--dry-run"])
        #expect(typeChange.stdout.contains("~ n: int -> string, 1 stored value not converted"))
        #expect(typeChange.stderr
            == "kura: error: Tag.n: type changed from int to string: 1 object holds values that only a Swift migration block can convert\n")
        let required = try file("three.yaml", "schemaVersion: 2\ntypes:\n  Tag:\n    properties:\n      n: int\n      label: string\n")
        let nulls = try Fixtures.run(kura, ["migrate", realm, "--schema", required, "--dry-run"])
        #expect(nulls.stdout.contains("~ label: optional -> required, 1 null: no default for 1 existing object: needs one"))
        #expect(nulls.stderr == "kura: error: Tag.label: optional to required: needs a default for the 1 object holding null\n")
    }

    @Test func positionalDocumentsCountTheValuesTheyMayHold() throws {
        let schema = try Schema(yaml: "schemaVersion: 1\ntypes:\n  Tag:\n    properties:\n      n: int\n")
        let mapper = DocumentMapper(schema: schema, file: "t.json")
        let node = try #require(try JSONReader(bytes: Array("[1, 2]".utf8), file: "t.json", layout: .document).next())
        do {
            _ = try mapper.map(node, as: "Tag")
            Issue.record("two values for one property were accepted")
        } catch {
            #expect(error.allErrors.first?.message == "expected at most 1 value for a positional Tag document, found 2")
        }
    }
}
