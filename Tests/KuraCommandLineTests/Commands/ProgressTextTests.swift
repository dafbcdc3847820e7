import Foundation
import Kura
import KuraTestSupport
import Testing

// @testable for the command line's internal `ProgressText`, the text of the line drawn on a terminal.
@testable import KuraCommandLine

/// The progress line of an export shows a total and the time left, as an import's does.
@Suite struct ProgressTextTests {
    @Test func anExportOfOneTypeCountsDocumentsTowardsTheSelection() {
        let progress = ExportProgress(documents: 30_000, bytes: 12_500_000, objects: 45_000, total: .documents(120_000))
        #expect(ProgressText.exporting(progress, elapsed: 2)
            == "30000/120000 documents (25%)  12.5 MB  15000 documents/s  6.2 MB/s  6 s left")
    }

    @Test func aWholeRealmExportCountsObjectsTowardsTheRealm() {
        let progress = ExportProgress(documents: 1_000, bytes: 2_000_000, objects: 50_000, total: .objects(1_000_000))
        #expect(ProgressText.exporting(progress, elapsed: 5)
            == "50000/1000000 objects (5%)  2.0 MB  10000 objects/s  0.4 MB/s  1 min 35 s left")
        let done = ExportProgress(documents: 1, bytes: 10, objects: 1, total: .objects(1))
        #expect(ProgressText.exporting(done, elapsed: 1) == "1/1 object (100%)  0.0 MB  1 objects/s  0.0 MB/s")
    }

    @Test func aCopyWithoutATotalCountsDocuments() {
        #expect(ProgressText.exporting(ExportProgress(documents: 1, bytes: 0), elapsed: 0.5) == "1 document  2 documents/s")
        #expect(ProgressText.exporting(ExportProgress(documents: 4_000, bytes: 0), elapsed: 2) == "4000 documents  2000 documents/s")
    }

    @Test func anImportShowsItsBytesOfTheInputs() {
        #expect(ProgressText.importing(bytes: 12_500_000, totalBytes: 50_000_000, documents: 30_000, rejected: 0, elapsed: 2)
            == "12.5/50.0 MB (25%)  30000 documents  15000 documents/s  6.2 MB/s  6 s left")
        #expect(ProgressText.importing(bytes: 100, totalBytes: 0, documents: 1, rejected: 2, elapsed: 1)
            == "0.0 MB  1 document  1 documents/s  0.0 MB/s  2 rejected")
    }

    /// A realm of the samples, in `folder`.
    static func samplesRealm(in folder: URL) throws -> Realm {
        let path = folder.appendingPathComponent("samples.realm").path
        let kura = Fixtures.executable("kura")
        #expect(try Fixtures.run(kura, ["init", path, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        let samples = Fixtures.packageRoot.appendingPathComponent("Samples")
        for arguments in [["people.json", "--type", "Person"], ["dogs.yaml"], ["friends.json"]] {
            let file = samples.appendingPathComponent(arguments[0]).path
            #expect(try Fixtures.run(kura, ["import", path, file] + arguments.dropFirst()).status == 0)
        }
        return try Realm(path: path)
    }

    @Test func theExporterCountsWhatItWritesBeforeItStarts() throws {
        let realm = try Self.samplesRealm(in: try Fixtures.temporaryDirectory())
        let everything = try realm.schema.types.reduce(0) { $0 + (try realm.count($1.name)) }

        for options in [ExportOptions(), ExportOptions(type: "Dog", predicate: "age >= 3")] {
            var exporter = RealmExporter(realm: realm, options: options)
            exporter.progressInterval = 1
            var reports: [ExportProgress] = []
            exporter.onProgress = { reports.append($0) }
            let summary = try exporter.run(to: DocumentWriter(schema: realm.schema, format: .json, output: DocumentOutput()))
            let last = try #require(reports.last)
            if options.type == nil {
                #expect(last.total == .objects(everything))
                #expect(summary.objects.values.reduce(0, +) == everything)
            } else {
                #expect(last.total == .documents(try realm.count("Dog", where: "age >= 3")))
            }
            // The last report comes after the last document: all is done.
            #expect(last.completed.map { $0.done == $0.total } == true, "\(options)")
        }
    }

    @Test func theCopierCountsWhatItCopiesBeforeItStarts() throws {
        let folder = try Fixtures.temporaryDirectory()
        let realm = try Self.samplesRealm(in: folder)
        let everything = try realm.schema.types.reduce(0) { $0 + (try realm.count($1.name)) }
        // In SQL between files, object by object into memory, and a selection.
        let copies: [(destination: String, options: CopyOptions, total: ExportTotal)] = [
            (folder.appendingPathComponent("copy.realm").path, CopyOptions(), .objects(everything)),
            ("memory:copy", CopyOptions(), .objects(everything)),
            (folder.appendingPathComponent("dogs.realm").path, CopyOptions(type: "Dog", predicate: "age >= 3"),
             .documents(try realm.count("Dog", where: "age >= 3"))),
        ]
        for copy in copies {
            let destination = try Realm(configuration: Realm.Configuration(path: copy.destination, schema: realm.schema))
            var copier = RealmCopier(source: realm, destination: destination, options: copy.options)
            copier.progressInterval = 1
            var reports: [ExportProgress] = []
            copier.onProgress = { reports.append($0) }
            _ = try copier.run()
            let last = try #require(reports.last, "\(copy.destination)")
            #expect(last.total == copy.total, "\(copy.destination)")
            #expect(last.completed.map { $0.done == $0.total } == true, "\(copy.destination)")
            #expect(ProgressText.exporting(reports[0], elapsed: 1).contains(" s left"), "\(copy.destination)")
        }
    }

    @Test func timeLeftIsInSecondsMinutesOrHours() {
        #expect(ProgressText.timeLeft(done: 0, of: 10, elapsed: 1) == nil)
        #expect(ProgressText.timeLeft(done: 10, of: 10, elapsed: 1) == nil)
        #expect(ProgressText.timeLeft(done: 1, of: 10, elapsed: 1) == "9 s left")
        #expect(ProgressText.timeLeft(done: 1, of: 126, elapsed: 1) == "2 min 5 s left")
        #expect(ProgressText.timeLeft(done: 1, of: 4_801, elapsed: 1) == "1 h 20 min left")
    }
}
