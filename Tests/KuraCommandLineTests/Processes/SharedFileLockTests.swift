import Foundation
import Kura
import KuraTestSupport
import Testing

/// A process with several realms open on one file keeps its SQLite locks on it: opening another
/// realm must not drop them (closing any descriptor of a file drops the process's POSIX locks), or
/// another process takes the file for unused when it closes, and deletes the WAL still in use.
@Suite struct SharedFileLockTests {
    @Test func openingASecondRealmKeepsTheFirstOnesWALForOtherProcesses() throws {
        let path = try Fixtures.realmPath("shared.realm")
        let kura = Fixtures.executable("kura")
        #expect(try Fixtures.run(kura, ["init", path, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        let first = try Realm(path: path)
        #expect(try first.count("Person") == 0)
        let second = try Realm(path: path)
        #expect(try second.count("Person") == 0)
        // Another process writes to the realm and closes it while both are open here.
        let input = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("one.jsonl")
        try Data(#"{"id": 2, "name": "Bo"}"#.utf8).write(to: input)
        #expect(try Fixtures.run(kura, ["import", path, input.path, "--type", "Person"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try first.write {
            try first.create("Person", value: .map(["id": .int(1), "name": .string("Ada")]))
        }
        let counted = try Fixtures.run(kura, ["export", path, "--type", "Person", "--format", "jsonl"])
        #expect(counted.stdout.contains(#""name":"Ada""#), "another process does not see the commit: \(counted.stdout) \(counted.stderr)")
        #expect(counted.stdout.contains(#""name":"Bo""#))
        #expect(try second.count("Person") == 2)
    }
}
