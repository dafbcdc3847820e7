import Foundation
import GRDB
import Kura
import KuraTestSupport
import Testing

/// Reading needs no write permission and leaves nothing behind; missing folders
/// are named and a file that is not a realm reads the same in every command (item 12).
@Suite struct FileAccessTests {
    let kura = Fixtures.executable("kura")

    /// The commands that only read a realm, with `realm` and a writable `scratch` folder.
    private func readingCommands(_ realm: String, scratch: String) -> [[String]] {
        [
            ["export", realm],
            ["export", realm, "--type", "Person", "-o", scratch + "/people.json"],
            ["check", realm],
            ["schema", realm],
            ["copy", realm, scratch + "/copy.realm"],
            // Into an existing realm, the source attached to the destination's connection.
            ["copy", realm, scratch + "/existing.realm", "--skip-existing"],
            ["delete", realm, "--type", "Dog", "--dry-run"],
            ["migrate", realm, "--schema", Fixtures.samplesSchemaPath, "--dry-run"],
        ]
    }

    /// Runs `kura` as the unprivileged user `nobody` when this process is root (root ignores file
    /// modes); otherwise as this user, for whom the modes hold anyway.
    private func runAsReader(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        guard geteuid() == 0 else { return try Fixtures.run(kura, arguments) }
        return try Fixtures.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", kura] + arguments)
    }

    /// A realm with the sample people in `folder`, made by this user.
    private func samplesRealm(in folder: URL) throws -> String {
        let realm = folder.appendingPathComponent("people.realm").path
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        let input = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        #expect(try Fixtures.run(kura, ["import", realm, input, "--type", "Person"]).status == 0)
        return realm
    }

    @Test(arguments: [0o755, 0o1777])
    func aReaderWhoMayNotWriteReadsAndLeavesNothingBehind(folderMode: Int) throws {
        #expect(geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                "running as root needs setpriv to test as another user")
        let folder = try Fixtures.temporaryDirectory()
        let scratch = try Fixtures.temporaryDirectory()
        let realm = try samplesRealm(in: folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: realm))
        // The realm's folder is readable (0755) or writable by all with the sticky bit, as /tmp
        // is (0o1777); the realm itself only readable by others.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: realm)
        try FileManager.default.setAttributes([.posixPermissions: folderMode], ofItemAtPath: folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: scratch.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        #expect(try runAsReader(["init", scratch.path + "/existing.realm", "--schema", Fixtures.samplesSchemaPath]).status == 0)
        for command in readingCommands(realm, scratch: scratch.path) {
            let result = try runAsReader(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["people.realm"], "\(command)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: realm)) == bytes)
        let export = try runAsReader(["export", realm, "--type", "Person", "--format", "jsonl"])
        #expect(export.stdout.components(separatedBy: "\n").count == 4)

        // A writer who may not write is told so, before SQLite leaves files the owner cannot write.
        let write = try runAsReader(["delete", realm, "--type", "Dog"])
        #expect(write.status == 74)
        #expect(write.stderr == "kura: error: cannot write realm '\(realm)': Permission denied\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["people.realm"])
        #expect(try Fixtures.run(kura, ["delete", realm, "--type", "Dog"]).stdout == "Dog: 2 deleted\n")
    }

    @Test func theOwnersReadsLeaveNothingBehindEither() throws {
        let folder = try Fixtures.temporaryDirectory()
        let scratch = try Fixtures.temporaryDirectory()
        let realm = try samplesRealm(in: folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: realm))
        #expect(try Fixtures.run(kura, ["init", scratch.path + "/existing.realm", "--schema", Fixtures.samplesSchemaPath]).status == 0)
        for command in readingCommands(realm, scratch: scratch.path) {
            let result = try Fixtures.run(kura, command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["people.realm"], "\(command)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: realm)) == bytes)
    }

    @Test func aRealmOpenedReadOnlyRefusesWritesAndLeavesNoFiles() throws {
        let folder = try Fixtures.temporaryDirectory()
        let path = try samplesRealm(in: folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let realm = try Realm(configuration: Realm.Configuration(path: path, readOnly: true))
            #expect(try realm.count("Person") == 3)
            expectKuraError(.store) { try realm.write { _ = try realm.create("DogToy", value: ["name": "ball"]) } }
            #expect(try realm.count("DogToy") == 1)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["people.realm"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(throws: KuraError.store(.openFailed, "a realm opened read-only takes the schema it stores: give no schema")) {
            try Realm(configuration: Realm.Configuration(path: path, schema: try Fixtures.samplesSchema(), readOnly: true))
        }
    }

    @Test func aMissingFolderIsNamedByEveryCommand() throws {
        let folder = try Fixtures.temporaryDirectory()
        let realm = try samplesRealm(in: folder)
        let missing = folder.appendingPathComponent("gone").path
        let inGone = missing + "/x.realm"
        let input = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        let expectations: [([String], String)] = [
            (["init", inGone, "--schema", Fixtures.samplesSchemaPath], "cannot create realm '\(inGone)': no folder '\(missing)'"),
            (["import", inGone, input, "--type", "Person"], "no realm at '\(inGone)': no folder '\(missing)'"),
            (["export", inGone], "no realm at '\(inGone)': no folder '\(missing)'"),
            (["copy", inGone, realm], "no realm at '\(inGone)': no folder '\(missing)'"),
            (["copy", realm, inGone], "cannot create realm '\(inGone)': no folder '\(missing)'"),
            (["delete", inGone, "--type", "Dog"], "no realm at '\(inGone)': no folder '\(missing)'"),
            (["schema", inGone], "no realm at '\(inGone)': no folder '\(missing)'"),
            (["migrate", inGone, "--schema", Fixtures.samplesSchemaPath], "no realm at '\(inGone)': no folder '\(missing)'"),
            (["check", inGone], "no realm at '\(inGone)': no folder '\(missing)'"),
        ]
        for (command, message) in expectations {
            let result = try Fixtures.run(kura, command)
            #expect(result.status == 66, "\(command)")
            #expect(result.stderr == "kura: error: \(message)\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["people.realm"])
    }

    /// Files that are not realms, with the reason every command gives.
    private func notRealms(in folder: URL) throws -> [(path: String, reason: String)] {
        let text = folder.appendingPathComponent("notes.realm").path
        try "just text\n".write(toFile: text, atomically: true, encoding: .utf8)
        let empty = folder.appendingPathComponent("empty.realm").path
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        let sqlite = folder.appendingPathComponent("other.realm").path
        let queue = try DatabaseQueue(path: sqlite)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        try queue.close()
        return [
            (text, "it is not an SQLite database"),
            (empty, "the file is empty"),
            (sqlite, "it is an SQLite database without Kura's tables"),
        ]
    }

    @Test func aFileThatIsNotARealmReadsTheSameInEveryCommand() throws {
        let folder = try Fixtures.temporaryDirectory()
        let realm = try samplesRealm(in: folder)
        let input = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        for (file, reason) in try notRealms(in: folder) {
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            var commands: [[String]] = [
                ["import", file, input, "--type", "Person"], ["export", file], ["copy", file, folder.path + "/new.realm"],
                ["copy", realm, file], ["delete", file, "--type", "Dog"], ["schema", file],
                ["migrate", file, "--schema", Fixtures.samplesSchemaPath], ["check", file],
            ]
            // An empty file is a new database, which init makes a realm; the others it refuses.
            if !before.isEmpty { commands.append(["init", file, "--schema", Fixtures.samplesSchemaPath]) }
            for command in commands {
                let result = try Fixtures.run(kura, command)
                #expect(result.status == 65, "\(command)")
                #expect(result.stderr == "kura: error: '\(file)' is not a realm: \(reason)\n", "\(command)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "\(command)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            == ["empty.realm", "notes.realm", "other.realm", "people.realm"])
    }
}
