import Foundation
import Kura
import KuraTestSupport
import Testing

/// The import engine under the `kura import` command: atomic stop, skip with rejects, dry runs, whole-realm inputs.
struct DocumentImporterCases {
    let realm: Realm

    init(_ engine: RealmEngine) throws { realm = try Realm(path: try engine.freshRealm(), schema: try Fixtures.samplesSchema()) }

    func aStopImportWhose10000thDocumentIsBadWritesNothing() throws {
        let importer = DocumentImporter(realm: realm, options: ImportOptions(type: "Person"))
        #expect {
            try importer.run(JSONReader(bytes: SampleDocuments.people(10_000, badAt: 10_000), file: "people.json"))
        } throws: { error in
            (error as? KuraError)?.description == #"people.json:10000:55: error: $[9999].dogs[0].age: expected int, found string "three""#
        }
        #expect(try realm.count("Person") == 0)
        #expect(try realm.count("Dog") == 0)
    }

    func aSkipImportSetsBadDocumentsAsideAndKeepsTheRest() throws {
        var options = ImportOptions(type: "Person", onError: .skip)
        options.batchSize = 7
        let importer = DocumentImporter(realm: realm, options: options)
        var rejected: [(TextPosition, [String])] = []
        importer.onReject = { node, errors in rejected.append((node.position, errors)) }
        let summary = try importer.run(JSONReader(bytes: SampleDocuments.people(30, badAt: 12), file: "people.json"))
        #expect(try realm.count("Person") == 29)
        #expect(summary.counts["Person"]?.inserted == 29)
        #expect(summary.counts["Dog"]?.inserted == 29)
        #expect(summary.rejected == ["Person": 1])
        #expect(summary.documents == 30)
        #expect(rejected.count == 1)
        #expect(rejected.first?.1 == [#"people.json:12:49: error: $[11].dogs[0].age: expected int, found string "three""#])
        #expect(try Fixtures.problems(realm) == [])
    }

    /// A club whose nested member repeats an existing key: the writer fails after the club's own
    /// row is written, so the half-written document must be undone.
    static let clubsWithADuplicateMember = """
        {"$type": "Person", "id": 5, "name": "Ann"}
        {"$type": "DogClub", "name": "Good", "members": [5]}
        {"$type": "DogClub", "name": "Half", "members": [{"id": 6, "name": "Bo"}, {"id": 5, "name": "Again"}]}
        {"$type": "DogClub", "name": "After", "members": [{"id": 7, "name": "Cy"}]}
        """

    func aSkipImportUndoesADocumentThatFailsHalfWritten() throws {
        let importer = DocumentImporter(realm: realm, options: ImportOptions(onError: .skip))
        var rejected: [[String]] = []
        importer.onReject = { _, errors in rejected.append(errors) }
        let summary = try importer.run(JSONReader(bytes: Array(Self.clubsWithADuplicateMember.utf8), file: "clubs.jsonl", layout: .lines))
        #expect(summary.rejected == ["DogClub": 1])
        #expect(rejected.count == 1)
        #expect(try realm.objects("DogClub").map { try $0.value(forKey: "name") } == ["Good", "After"])
        #expect(try realm.objects("Person").map { try $0.value(forKey: "name") } == ["Ann", "Cy"])
        #expect(try Fixtures.problems(realm) == [])
    }

    func aStopImportWhoseDocumentFailsHalfWrittenWritesNothing() throws {
        let importer = DocumentImporter(realm: realm)
        expectKuraError(.transfer) {
            try importer.run(JSONReader(bytes: Array(Self.clubsWithADuplicateMember.utf8), file: "clubs.jsonl", layout: .lines))
        }
        #expect(try realm.count("DogClub") == 0)
        #expect(try realm.count("Person") == 0)
        // The realm is usable afterwards: the same input without the bad document goes in whole.
        let good = Self.clubsWithADuplicateMember.split(separator: "\n").filter { !$0.contains("Half") }.joined(separator: "\n")
        _ = try importer.run(JSONReader(bytes: Array(good.utf8), file: "clubs.jsonl", layout: .lines))
        #expect(try realm.count("DogClub") == 2)
        #expect(try realm.count("Person") == 2)
        #expect(try Fixtures.problems(realm) == [])
    }

    func aDryRunCountsEverythingAndKeepsNothing() throws {
        let importer = DocumentImporter(realm: realm, options: ImportOptions(type: "Person", dryRun: true))
        let summary = try importer.run(JSONReader(bytes: SampleDocuments.people(50), file: "people.json"))
        #expect(summary.counts["Person"]?.inserted == 50)
        #expect(try realm.count("Person") == 0)
    }

    func aWholeRealmInputNamesEachDocumentsType() throws {
        let text = """
            {"$type": "DogToy", "name": "Ball"}
            {"$type": "Person", "id": 7, "name": "Ann", "dogs": [{"$id": "rex", "name": "Rex", "age": 2}]}
            {"$type": "DogClub", "name": "Club", "members": [7]}
            {"$type": "Person", "name": "Bo", "dogs": [{"$ref": "rex"}]}
            """
        let summary = try DocumentImporter(realm: realm).run(JSONReader(bytes: Array(text.utf8), file: "realm.jsonl", layout: .lines))
        #expect(summary.counts["Person"]?.inserted == 2)
        #expect(summary.counts["Dog"]?.inserted == 1)
        #expect(try realm.count("DogToy") == 1)
        let club = try #require(try realm.objects("DogClub").first)
        #expect(try club.objects("members").map { try $0.value(forKey: "name") } == ["Ann"])
        let bo = try #require(try realm.object(ofType: "Person", forPrimaryKey: 8))
        #expect(try bo.objects("dogs").map { try $0.value(forKey: "name") } == ["Rex"])
    }

    func aWholeRealmDocumentWithoutATypeIsRefused() throws {
        #expect {
            try DocumentImporter(realm: realm).run(JSONReader(bytes: Array(#"[{"name": "x"}]"#.utf8), file: "r.json"))
        } throws: { error in
            (error as? KuraError)?.description
                == #"r.json:1:2: error: $[0]: a document of a whole-realm input names its type with "$type" (or give --type)"#
        }
    }

    func aReferenceNoDocumentDefinesStopsTheImport() throws {
        let text = #"[{"name": "A", "dogs": [{"$ref": "x"}]}]"#
        #expect {
            try DocumentImporter(realm: realm, options: ImportOptions(type: "Person")).run(JSONReader(bytes: Array(text.utf8), file: "p.json"))
        } throws: { error in
            (error as? KuraError)?.description == #"p.json:1:2: error: $[0].dogs[0]: {"$ref": "x"} names no document with "$id": "x" in this input"#
        }
        #expect(try realm.count("Person") == 0)
    }

    func anUnknownTypeIsAUsageError() throws {
        #expect {
            try DocumentImporter(realm: realm, options: ImportOptions(type: "Cat")).run(JSONReader(bytes: Array("[]".utf8), file: "c.json"))
        } throws: { error in
            (error as? KuraError) == KuraError.transfer(.usage, "no type 'Cat' in the realm (types: Address, Dog, DogClub, DogToy, Person)", file: "c.json")
        }
    }
}

/// The cases of `DocumentImporterCases`, each run on every engine that does not need an SQLite file.
@Suite struct DocumentImporterTests {
    @Test(arguments: RealmEngine.tested) func aStopImportWhose10000thDocumentIsBadWritesNothing(on engine: RealmEngine) throws {
        try DocumentImporterCases(engine).aStopImportWhose10000thDocumentIsBadWritesNothing()
    }
    @Test(arguments: RealmEngine.tested) func aSkipImportSetsBadDocumentsAsideAndKeepsTheRest(on engine: RealmEngine) throws {
        try DocumentImporterCases(engine).aSkipImportSetsBadDocumentsAsideAndKeepsTheRest()
    }
    @Test(arguments: RealmEngine.tested) func aSkipImportUndoesADocumentThatFailsHalfWritten(on engine: RealmEngine) throws {
        try DocumentImporterCases(engine).aSkipImportUndoesADocumentThatFailsHalfWritten()
    }
    @Test(arguments: RealmEngine.tested) func aStopImportWhoseDocumentFailsHalfWrittenWritesNothing(on engine: RealmEngine) throws {
        try DocumentImporterCases(engine).aStopImportWhoseDocumentFailsHalfWrittenWritesNothing()
    }
    @Test(arguments: RealmEngine.tested) func aDryRunCountsEverythingAndKeepsNothing(on engine: RealmEngine) throws {
        try DocumentImporterCases(engine).aDryRunCountsEverythingAndKeepsNothing()
    }
    @Test(arguments: RealmEngine.tested) func aWholeRealmInputNamesEachDocumentsType(on engine: RealmEngine) throws {
        try DocumentImporterCases(engine).aWholeRealmInputNamesEachDocumentsType()
    }
    @Test(arguments: RealmEngine.tested) func aWholeRealmDocumentWithoutATypeIsRefused(on engine: RealmEngine) throws {
        try DocumentImporterCases(engine).aWholeRealmDocumentWithoutATypeIsRefused()
    }
    @Test(arguments: RealmEngine.tested) func aReferenceNoDocumentDefinesStopsTheImport(on engine: RealmEngine) throws {
        try DocumentImporterCases(engine).aReferenceNoDocumentDefinesStopsTheImport()
    }
    @Test(arguments: RealmEngine.tested) func anUnknownTypeIsAUsageError(on engine: RealmEngine) throws {
        try DocumentImporterCases(engine).anUnknownTypeIsAUsageError()
    }
}
