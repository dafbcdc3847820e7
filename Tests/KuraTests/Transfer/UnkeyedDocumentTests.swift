import Foundation
import Kura
import KuraTestSupport
import Testing

/// Top-level documents of a type without a primary key under `update`, `modified` and `replace`,
/// and under `--skip-existing`: matched by what they hold, so an input imported again adds
/// nothing, while equal documents of one input stay as many objects.
@Suite struct UnkeyedDocumentTests {
    static let schema = """
        schemaVersion: 1
        types:
          Tag:
            properties:
              name: string
          Note:
            properties:
              text: string
              words: list<string>
              tag: Tag?
          Box:
            primaryKey: id
            properties:
              id: int
              note: Note?
        """

    let realm: Realm

    init() throws {
        realm = try Realm(path: try Fixtures.realmPath(), schema: try Schema(yaml: Self.schema))
    }

    func importing(_ text: String, mode: UpdatePolicy, skipExisting: Bool = false) throws -> ImportSummary {
        var options = ImportOptions(mode: mode)
        options.skipExisting = skipExisting
        return try DocumentImporter(realm: realm, options: options).run(JSONReader(bytes: Array(text.utf8), file: "notes.json"))
    }

    func export(_ realm: Realm? = nil) throws -> String {
        let realm = realm ?? self.realm
        let output = DocumentOutput()
        _ = try RealmExporter(realm: realm).run(to: DocumentWriter(schema: realm.schema, format: .jsonl, output: output))
        return String(decoding: output.bytes, as: UTF8.self)
    }

    func texts() throws -> [Value] {
        try realm.objects("Note").map { try $0.value(forKey: "text") }
    }

    static let twoEqualNotes = #"[{"$type": "Note", "text": "a", "words": ["x"]}, {"$type": "Note", "text": "a", "words": ["x"]}]"#

    @Test(arguments: [UpdatePolicy.update, .modified, .replace])
    func equalDocumentsStayAsManyObjectsAndComeBackUnchanged(mode: UpdatePolicy) throws {
        #expect(try importing(Self.twoEqualNotes, mode: mode).counts == ["Note": ChangeCounts(inserted: 2)])
        let before = try export()
        #expect(try importing(Self.twoEqualNotes, mode: mode).counts == ["Note": ChangeCounts(unchanged: 2)])
        #expect(try export() == before)
        // Three equal documents: two find the objects there, the third is a new object.
        let three = #"[{"$type": "Note", "text": "a", "words": ["x"]}, "# + String(Self.twoEqualNotes.dropFirst())
        #expect(try importing(three, mode: mode).counts == ["Note": ChangeCounts(inserted: 1, unchanged: 2)])
        #expect(try realm.count("Note") == 3)
        // The same text with other words matches none of them: the objects there stay as they are.
        #expect(try importing(#"{"$type": "Note", "text": "a", "words": ["y"]}"#, mode: mode).counts == ["Note": ChangeCounts(inserted: 1)])
        #expect(try realm.objects("Note").map { try $0.value(forKey: "words") } == [.list(["x"]), .list(["x"]), .list(["x"]), .list(["y"])])
    }

    /// What a matched note holds without a key is updated in place, as nested objects always are.
    @Test func theObjectsAMatchedDocumentHoldsAreUpdatedInPlace() throws {
        _ = try importing(#"{"$type": "Note", "text": "a", "tag": {"name": "old"}}"#, mode: .error)
        let tag = try #require(try realm.objects("Note").first?.link("tag"))
        #expect(try importing(#"{"$type": "Note", "text": "a", "tag": {"name": "new"}}"#, mode: .update).counts
            == ["Note": ChangeCounts(unchanged: 1), "Tag": ChangeCounts(updated: 1)])
        #expect(try realm.count("Note") == 1 && realm.count("Tag") == 1)
        #expect(try tag.value(forKey: "name") == "new")
    }

    /// A whole-realm export holds boxed notes and free ones alike; imported under `update` into an
    /// empty realm it makes every object (a free note never matches a boxed one made before it),
    /// and imported again it changes nothing.
    @Test func aWholeRealmExportImportsWholeAndThenChangesNothing() throws {
        _ = try importing("""
            [{"$type": "Box", "id": 1, "note": {"text": "a", "tag": {"name": "t"}}}, {"$type": "Note", "text": "a", "tag": {"name": "t"}},
             {"$type": "Note", "text": "a", "tag": {"name": "t"}}, {"$type": "Note", "text": "b", "words": ["w", "w"]}]
            """, mode: .error)
        let exported = try export()
        let copy = try Realm(path: try Fixtures.realmPath(), schema: realm.schema)
        let summary = try DocumentImporter(realm: copy, options: ImportOptions(mode: .update))
            .run(JSONReader(bytes: Array(exported.utf8), file: "all.jsonl", layout: .lines))
        #expect(summary.counts == ["Box": ChangeCounts(inserted: 1), "Note": ChangeCounts(inserted: 4), "Tag": ChangeCounts(inserted: 3)])
        #expect(try export(copy) == exported)
        let again = try DocumentImporter(realm: copy, options: ImportOptions(mode: .update))
            .run(JSONReader(bytes: Array(exported.utf8), file: "all.jsonl", layout: .lines))
        #expect(again.counts == ["Box": ChangeCounts(unchanged: 1), "Note": ChangeCounts(unchanged: 4), "Tag": ChangeCounts(unchanged: 3)])
        #expect(try export(copy) == exported)
        // Three notes "a" at the top: two find the free ones; the box's is the box's, so the third
        // is another note.
        let note = #"{"$type": "Note", "text": "a", "tag": {"name": "t"}}"#
        #expect(try importing("[\(note), \(note), \(note)]", mode: .update).counts
            == ["Note": ChangeCounts(inserted: 1, unchanged: 2), "Tag": ChangeCounts(inserted: 1, unchanged: 2)])
        #expect(try realm.count("Note") == 5)
    }

    /// A whole-realm copy of objects without a key, run again, finds the objects the first one made
    /// (which it wrote table by table) under every mode but insert, and under `skipExisting`.
    @Test(arguments: [UpdatePolicy.update, .modified, .replace, .error])
    func aWholeCopyRunAgainFindsTheObjectsItMade(mode: UpdatePolicy) throws {
        _ = try importing(Self.twoEqualNotes, mode: .error)
        let destination = try Realm(path: try Fixtures.realmPath("copy.realm"), schema: realm.schema)
        var options = CopyOptions(mode: mode)
        options.skipExisting = mode == .error
        #expect(try RealmCopier(source: realm, destination: destination, options: options).run() == ["Note": ChangeCounts(inserted: 2)])
        let before = try export(destination)
        #expect(try RealmCopier(source: realm, destination: destination, options: options).run() == ["Note": ChangeCounts(unchanged: 2)])
        #expect(try export(destination) == before)
        #expect(try destination.count("Note") == 2)
    }

    /// `--skip-existing` leaves out a document without a key when an object holds all of it, the
    /// objects nested in it included; one that differs anywhere is a new object.
    @Test func skipExistingLeavesOutADocumentAnObjectHoldsWhole() throws {
        let note = #"{"$type": "Note", "text": "a", "tag": {"name": "t"}}"#
        _ = try importing(note, mode: .error)
        #expect(try importing(note, mode: .error, skipExisting: true).counts == ["Note": ChangeCounts(unchanged: 1)])
        #expect(try realm.count("Note") == 1)
        let other = try importing(#"{"$type": "Note", "text": "a", "tag": {"name": "u"}}"#, mode: .error, skipExisting: true)
        #expect(other.counts == ["Note": ChangeCounts(inserted: 1), "Tag": ChangeCounts(inserted: 1)])
        #expect(try realm.objects("Tag").map { try $0.value(forKey: "name") } == ["t", "u"])
    }
}
