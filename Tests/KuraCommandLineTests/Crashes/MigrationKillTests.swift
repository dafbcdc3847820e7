import Foundation
import Kura
import KuraTestSupport
import Testing

/// `kura migrate` killed with SIGKILL partway: the realm is the old one, whole, or the new one, whole.
/// (`Scripts/migrate-kill.sh` does the same by hand at 200,000 objects.)
@Suite struct MigrationKillTests {
    typealias M = MigrationFixtures
    static let entries = 30_000

    @Test func aMigrationKilledHalfwayLeavesTheOldRealmIntactAndOpenable() throws {
        let folder = try Fixtures.temporaryDirectory()
        let base = folder.appendingPathComponent("base.realm").path
        let kura = Fixtures.executable("kura")
        let v1 = folder.appendingPathComponent("v1.yaml").path
        let v2 = folder.appendingPathComponent("v2.yaml").path
        let input = folder.appendingPathComponent("diary.jsonl").path
        try M.diaryV1.write(toFile: v1, atomically: true, encoding: .utf8)
        try M.diaryV2.write(toFile: v2, atomically: true, encoding: .utf8)
        // `kura import` fills the realm several times faster than a debug build of the tests would.
        let lines = (0..<Self.entries).map { index in
            let millis = Int64(M.firstDate.timeIntervalSince1970 * 1000) + Int64(index) * 3_600_000
            return #"{"text": "entry \#(index)", "date": {"$date": {"$numberLong": "\#(millis)"}}}"#
        }
        try lines.joined(separator: "\n").write(toFile: input, atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["init", base, "--schema", v1]).status == 0)
        let imported = try Fixtures.run(kura, ["import", base, input, "--type", "Diary"])
        #expect(imported.status == 0, "\(imported.stderr)")
        var interrupted = 0
        // Killed as soon as the plan is out (the migration is starting), then later and later: the
        // debug build migrates 30,000 entries quickly, so the last kills may come after it.
        for (attempt, delay) in [0.0, 0.02, 0.05, 0.1, 0.2, 0.4].enumerated() {
            let path = folder.appendingPathComponent("attempt\(attempt).realm").path
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: base + suffix) {
                try FileManager.default.copyItem(atPath: base + suffix, toPath: path + suffix)
            }
            let finished = try migrateAndKill(path, schema: v2, after: delay)
            // Checked as the kill left it, before opening could recover anything.
            #expect(try RealmChecker(path: path).check().messages == [], "attempt \(attempt)")
            let realm = try Realm(path: path)
            if realm.schema.version == 1 {
                interrupted += 1
                #expect(realm.schema == (try Schema(yaml: M.diaryV1)))
                try expectEntries(in: realm, keyed: false)
            } else {
                #expect(realm.schema == (try Schema(yaml: M.diaryV2)), "attempt \(attempt) (finished: \(finished))")
                try expectEntries(in: realm, keyed: true)
            }
        }
        #expect(interrupted > 0, "no kill landed before the migration committed")
    }

    /// Starts `kura migrate`, waits for its plan on standard output and `delay` seconds more, and kills
    /// it with SIGKILL; returns whether it had ended by itself first.
    private func migrateAndKill(_ path: String, schema: String, after delay: TimeInterval) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixtures.executable("kura"))
        process.arguments = ["migrate", path, "--schema", schema]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("fresh uuid\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        let finished = !process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return finished
    }

    /// Every entry is there with its text and date (spot-checked by query), with distinct keys when keyed.
    private func expectEntries(in realm: Realm, keyed: Bool) throws {
        #expect(try realm.count("Diary") == Self.entries)
        #expect(try realm.count("Diary", where: "text BEGINSWITH 'entry '") == Self.entries)
        for index in [0, Self.entries / 2, Self.entries - 1] {
            let entry = try #require(try realm.objects("Diary", where: "text == 'entry \(index)'").first)
            #expect(try entry["date"] == .date(M.firstDate.addingTimeInterval(Double(index) * 3600)))
            #expect(try entry.values().keys.contains("id") == keyed)
        }
        if keyed {
            #expect(try realm.count("Diary", where: "id == nil") == 0)
        }
    }
}
