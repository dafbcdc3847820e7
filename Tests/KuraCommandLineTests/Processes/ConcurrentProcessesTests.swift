import Foundation
import Kura
import KuraTestSupport
import Testing

/// Four `kura import` processes write into one realm at once while two `kura export` processes read
/// it over and over (concurrent importers never get the same key), on each engine.
/// `Scripts/concurrency.sh` runs the same at a larger scale by hand.
@Suite struct ConcurrentProcessesTests {
    typealias C = ConcurrencyFixtures
    static let writers = 4
    static let people = 160
    /// Documents in one writer's input: its people and a club per ten of them.
    static let documentsPerWriter = people + people / 10

    @Test(arguments: RealmEngine.tested) func fourAtomicImportsAndTwoLoopingExportersShareOneNewRealm(on engine: RealmEngine) throws {
        // Each import is one transaction: an export sees a writer's documents all or not at all.
        try importTogether(engine, options: [], visibleCounts: [0, Self.documentsPerWriter])
    }

    @Test(arguments: RealmEngine.tested) func fourImportsCommittingSmallBatchesInterleaveWithLoopingExporters(on engine: RealmEngine) throws {
        let batch = 7
        var counts = Set(stride(from: 0, through: Self.documentsPerWriter, by: batch))
        counts.insert(Self.documentsPerWriter)
        try importTogether(engine, options: ["--on-error", "skip", "--batch-size", "\(batch)"], visibleCounts: counts)
    }

    /// Runs the importers into a realm `kura init` has just made, with two exporters looping until
    /// they end, and checks the realm and every export taken meanwhile. `visibleCounts` are the
    /// numbers of one writer's documents an export may see, given how the writers commit.
    private func importTogether(_ engine: RealmEngine, options: [String], visibleCounts: Set<Int>) throws {
        let folder = try Fixtures.temporaryDirectory()
        let realm = try engine.freshRealm("shared")
        let created = try Fixtures.run(Fixtures.executable("kura"), ["init", realm, "--schema", Fixtures.samplesSchemaPath])
        #expect(created.status == 0, "\(created.stderr)")
        var inputs: [String] = []
        for writer in 1...Self.writers {
            let path = folder.appendingPathComponent("w\(writer).jsonl").path
            let lines = C.documents(writer: writer, people: Self.people)
            inputs += lines
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let importers = try (1...Self.writers).map { writer in
            try SpawnedProcess(["import", realm, folder.appendingPathComponent("w\(writer).jsonl").path] + options, in: folder)
        }
        var snapshots: [String] = []
        var exports: [(status: Int32, stdout: String, stderr: String)] = []
        repeat {
            let round = (0..<2).map { exporter in
                folder.appendingPathComponent("snapshot-\(snapshots.count / 2)-\(exporter).json").path
            }
            exports += try SpawnedProcess.runTogether(round.map { ["export", realm, "--output", $0] }, in: folder)
            snapshots += round
        } while importers.contains { $0.process.isRunning }

        for importer in importers {
            let result = try importer.finish()
            #expect(result.status == 0, "\(importer.arguments): \(result.stderr)")
            #expect(!mentionsLocking(result.stderr), "\(result.stderr)")
            #expect(result.stdout.contains("Person: \(Self.people) inserted, 0 updated, 0 unchanged\n"), "\(result.stdout)")
        }
        for export in exports {
            #expect(export.status == 0, "\(export.stderr)")
            #expect(!mentionsLocking(export.stderr), "\(export.stderr)")
        }

        // Everything is there once, with keys 1...n drawn without a gap or a repeat.
        let expected = try C.canonical(try C.parse(inputs.joined(separator: "\n")))
        let final = try Fixtures.run(Fixtures.executable("kura"), ["export", realm, "--format", "jsonl"])
        #expect(final.status == 0, "\(final.stderr)")
        let documents = try C.parse(final.stdout)
        #expect(try C.canonical(documents) == expected)
        let keys = documents.compactMap { $0["id"] as? Int }
        #expect(keys.sorted() == Array(1...(Self.writers * Self.people)))
        let opened = try Realm(path: realm)
        #expect(try opened.count("Person") == Self.writers * Self.people)
        #expect(try opened.count("Dog") == Self.writers * Self.people * 2)
        #expect(try opened.count("DogClub") == Self.writers * Self.people / 10)
        #expect(try RealmChecker(path: realm).check().messages == [])

        try checkSnapshots(snapshots, expected: Set(expected), visibleCounts: visibleCounts, in: folder)
    }

    /// Every export is one state of the realm: each writer's documents appear in a number its commits
    /// allow, each document is one of the inputs, and the export imports into a new realm cleanly.
    private func checkSnapshots(_ paths: [String], expected: Set<String>, visibleCounts: Set<Int>, in folder: URL) throws {
        var sizes: [(path: String, documents: Int)] = []
        for path in paths {
            let documents = try C.parse(try String(contentsOfFile: path, encoding: .utf8))
            var perWriter: [String: Int] = [:]
            for document in documents { perWriter[C.writer(of: document) ?? "?", default: 0] += 1 }
            for (writer, count) in perWriter {
                #expect(visibleCounts.contains(count), "\(path): \(count) documents of \(writer)")
            }
            #expect(Set(try C.canonical(documents)).isSubset(of: expected), "\(path)")
            sizes.append((path, documents.count))
        }
        // Re-imported: the smallest export with documents, a middle one and the largest.
        let ordered = sizes.filter { $0.documents > 0 }.sorted { $0.documents < $1.documents }
        let chosen = Set([ordered.first, ordered.dropFirst(ordered.count / 2).first, ordered.last].compactMap { $0?.path })
        let fresh = chosen.map { $0 + ".realm" }
        let inits = try SpawnedProcess.runTogether(
            fresh.map { ["init", $0, "--schema", Fixtures.samplesSchemaPath] }, in: folder)
        #expect(inits.allSatisfy { $0.status == 0 })
        let imports = try SpawnedProcess.runTogether(zip(fresh, chosen).map { ["import", $0, $1] }, in: folder)
        for ((realm, snapshot), result) in zip(zip(fresh, chosen), imports) {
            #expect(result.status == 0, "\(snapshot): \(result.stderr)")
            #expect(try RealmChecker(path: realm).check().messages == [], "\(snapshot)")
            let documents = sizes.first { $0.path == snapshot }?.documents ?? -1
            let opened = try Realm(path: realm)
            #expect(try opened.count("Person") + opened.count("DogClub") == documents, "\(snapshot)")
        }
    }

    private func mentionsLocking(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.contains("locked") || lowered.contains("busy")
    }
}
