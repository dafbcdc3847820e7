import Foundation
import Kura
import Testing

/// Strings that are canonically equivalent but differ in bytes (NFC and NFD `café`): Kura keeps and
/// compares them byte for byte, as Realm and SQLite do, so they are different primary keys,
/// references and set elements everywhere, and a whole-realm export imports back as it was.
@Suite struct CanonicalKeysTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    // Swift's `==` and `contains` on strings take the two forms for equal: compare bytes.
    private func same(_ text: String, _ expected: String) -> Bool { Array(text.utf8) == Array(expected.utf8) }

    private func has(_ text: String, _ part: String) -> Bool {
        let bytes = Array(text.utf8)
        let wanted = Array(part.utf8)
        guard !wanted.isEmpty, bytes.count >= wanted.count else { return wanted.isEmpty }
        return (0...(bytes.count - wanted.count)).contains { Array(bytes[$0..<($0 + wanted.count)]) == wanted }
    }

    static let schema = """
        types:
          P:
            primaryKey: id
            properties:
              id: string
              friend: P?
              tags: set<string>
              any: set<mixed>
              m: map<int>
              x: mixed
          Note:
            properties:
              text: string
              about: P?
        """

    @Test func keysThatDifferOnlyInNormalizationAreTwoObjectsAndRoundTrip() throws {
        let realm = try HostileRealm(schema: Self.schema, seed: nil)
        try realm.write("a.json", Array(#"{"id": "\#(Self.composed)", "x": "\#(Self.composed)"}"#.utf8))
        try realm.write("b.json", Array(#"{"id": "\#(Self.decomposed)", "friend": "\#(Self.composed)", "x": "\#(Self.decomposed)"}"#.utf8))
        for file in ["a.json", "b.json"] {
            let result = try realm.run(["import", "r.realm", file, "--type", "P"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("P: 1 inserted, 0 updated, 0 unchanged\n"))
        }
        let exported = try realm.export()
        // In primary key order, byte by byte: NFD's "e" sorts before NFC's "é".
        #expect(same(exported, """
            [
            {"$type":"P","id":"\(Self.decomposed)","friend":"\(Self.composed)","tags":[],"any":[],"m":{},"x":"\(Self.decomposed)"},
            {"$type":"P","id":"\(Self.composed)","friend":null,"tags":[],"any":[],"m":{},"x":"\(Self.composed)"}
            ]

            """))
        try realm.write("all.json", Array(exported.utf8))
        let copy = try HostileRealm("copy.realm", schema: Self.schema, seed: nil)
        let imported = try copy.run(["import", "copy.realm", realm.folder.appendingPathComponent("all.json").path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(same(try copy.export(), exported))
        #expect(try copy.problems() == [])
        // An update that gives a value in the other form writes it: it is another value.
        try copy.write("u.json", Array(#"{"id": "\#(Self.composed)", "x": "\#(Self.decomposed)", "tags": ["\#(Self.composed)"]}"#.utf8))
        #expect(try copy.run(["import", "copy.realm", "u.json", "--type", "P", "--mode", "update"]).status == 0)
        try copy.write("v.json", Array(#"{"id": "\#(Self.composed)", "tags": ["\#(Self.decomposed)"]}"#.utf8))
        #expect(try copy.run(["import", "copy.realm", "v.json", "--type", "P", "--mode", "modified"]).status == 0)
        let updated = try copy.run(["export", "copy.realm", "--type", "P", "--where", "friend == nil", "--format", "jsonl"]).stdout
        #expect(same(updated, #"{"id":"\#(Self.composed)","friend":null,"tags":["\#(Self.decomposed)"],"any":[],"m":{},"x":"\#(Self.decomposed)"}"# + "\n"))
    }

    @Test func documentsOfOneInputWithSuchKeysLinkToEachOtherNotToThemselves() throws {
        let realm = try HostileRealm(schema: Self.schema, seed: nil)
        let lines = [
            #"{"id": "\#(Self.composed)", "friend": "\#(Self.decomposed)"}"#,
            #"{"id": "\#(Self.decomposed)", "friend": "\#(Self.composed)"}"#,
        ]
        try realm.write("c.jsonl", Array(lines.joined(separator: "\n").utf8))
        let result = try realm.run(["import", "r.realm", "c.jsonl", "--type", "P"])
        #expect(result.status == 0, "\(result.stderr)")
        let friends = try realm.run(["export", "r.realm", "--type", "P", "--format", "jsonl"])
        #expect(has(friends.stdout, #""id":"\#(Self.composed)","friend":"\#(Self.decomposed)""#))
        #expect(has(friends.stdout, #""id":"\#(Self.decomposed)","friend":"\#(Self.composed)""#))
        // The same through $id and $ref: each note goes to the person its reference spells.
        let refs = """
            [{"text": "one", "about": {"$id": "\(Self.composed)", "id": "n1"}},
             {"text": "two", "about": {"$id": "\(Self.decomposed)", "id": "n2"}},
             {"text": "three", "about": {"$ref": "\(Self.decomposed)"}},
             {"text": "four", "about": {"$ref": "\(Self.composed)"}}]
            """
        try realm.write("notes.json", Array(refs.utf8))
        let notes = try realm.run(["import", "r.realm", "notes.json", "--type", "Note"])
        #expect(notes.status == 0, "\(notes.stderr)")
        let stored = try realm.run(["export", "r.realm", "--type", "Note", "--format", "jsonl"])
        #expect(same(stored.stdout, """
            {"text":"one","about":"n1"}
            {"text":"two","about":"n2"}
            {"text":"three","about":"n2"}
            {"text":"four","about":"n1"}

            """))
    }

    @Test func setsKeepBothFormsAndMapsRefuseThemAsOneKey() throws {
        let realm = try HostileRealm(schema: Self.schema, seed: nil)
        // Past eight elements a set finds duplicates by hashing, before that by comparing: both byte-wise.
        let padding = (1...9).map { "\"t\($0)\"" }.joined(separator: ", ")
        let document = """
            {"id": "s", "tags": [\(padding), "\(Self.composed)", "\(Self.decomposed)", "\(Self.composed)"],
             "any": ["\(Self.composed)", "\(Self.decomposed)", 1, "\(Self.decomposed)"]}
            """
        try realm.write("s.json", Array(document.utf8))
        let result = try realm.run(["import", "r.realm", "s.json", "--type", "P"])
        #expect(result.status == 0, "\(result.stderr)")
        let stored = try realm.run(["export", "r.realm", "--type", "P", "--format", "jsonl"])
        #expect(has(stored.stdout, #""tags":[\#(padding.replacingOccurrences(of: " ", with: "")),"\#(Self.composed)","\#(Self.decomposed)"]"#))
        #expect(has(stored.stdout, #""any":["\#(Self.composed)","\#(Self.decomposed)",1]"#))
        let small = #"{"id": "t", "tags": ["\#(Self.decomposed)", "\#(Self.composed)", "\#(Self.decomposed)"]}"#
        try realm.write("t.json", Array(small.utf8))
        #expect(try realm.run(["import", "r.realm", "t.json", "--type", "P"]).status == 0)
        let smallSet = try realm.run(["export", "r.realm", "--type", "P", "--where", "id == 't'", "--format", "jsonl"]).stdout
        #expect(has(smallSet, #""tags":["\#(Self.decomposed)","\#(Self.composed)"]"#))
        // Map keys are keys of a Swift dictionary ([String: Value], like Realm's Map), where the two are one key.
        try realm.expectRefused(
            "m.json", Array(#"{"id": "m", "m": {"\#(Self.composed)": 1, "\#(Self.decomposed)": 2}}"#.utf8), type: "P",
            "m.json:1:30: error: $[0].m: duplicate key '\(Self.decomposed)'")
    }
}
