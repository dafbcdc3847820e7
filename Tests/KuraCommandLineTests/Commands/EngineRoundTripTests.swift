import Foundation
import KuraTestSupport
import Testing

/// A whole realm of every feature an export keeps (`GraphFixture`: cycles, shared keyless objects,
/// embedded objects, maps, sets, mixed values, dates, data, decimals) through both engines with the
/// real `kura`: its export imported into a PostgreSQL realm, and the realm copied SQLite →
/// PostgreSQL → SQLite. Every export, in every format, has the bytes of the first.
@Suite struct EngineRoundTripTests {
    let kura = Fixtures.executable("kura")

    private func export(_ realm: String, format: String = "jsonl", sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try Fixtures.run(kura, ["export", realm, "--format", format])
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }

    private func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try Fixtures.run(kura, arguments)
        #expect(result.status == 0, "kura \(arguments.joined(separator: " ")): \(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test func aWholeRealmKeepsItsBytesOnBothEnginesAndAcrossThem() throws {
        guard PostgresTestServer.isReady() else { return }
        let folder = try Fixtures.temporaryDirectory()
        let (sqlite, schema) = try GraphFixture.makeRealm(in: folder)
        let reference = try export(sqlite)
        #expect(reference.contains(#""$ref""#) && reference.contains(#""$date""#) && reference.contains(#""$binary""#))

        // The export imported into a new PostgreSQL realm.
        let input = folder.appendingPathComponent("graph.jsonl").path
        try reference.write(toFile: input, atomically: true, encoding: .utf8)
        let imported = PostgresTestServer.freshRealmURL("graphimport")
        try run(["init", imported, "--schema", schema])
        try run(["import", imported, input])
        #expect(try export(imported) == reference)
        for format in ["json", "yaml"] {
            #expect(try export(imported, format: format) == export(sqlite, format: format), "\(format)")
        }

        // Copied into PostgreSQL and back into a new file.
        let copied = PostgresTestServer.freshRealmURL("graphcopy")
        try run(["copy", sqlite, copied])
        #expect(try export(copied) == reference)
        let back = folder.appendingPathComponent("back.realm").path
        try run(["copy", copied, back])
        #expect(try export(back) == reference)
        try run(["check", copied])
        try run(["check", back])

        // Imported again into itself under update: nothing changes.
        let again = try Fixtures.run(kura, ["import", imported, input, "--mode", "update"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try export(imported) == reference)
    }
}
