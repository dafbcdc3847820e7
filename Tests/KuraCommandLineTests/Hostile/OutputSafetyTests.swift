import Foundation
import GRDB
import KuraTestSupport
import Testing

/// No path Kura writes is one it reads or one it does not own: outputs are
/// compared with the realm, its -wal and -shm and the inputs by file identity; devices and FIFOs
/// are written directly, a symbolic link's target is replaced, other kinds of file are refused,
/// and the rejects file appears only with the first reject.
@Suite struct OutputSafetyTests {
    let kura = Fixtures.executable("kura")
    let folder: URL

    init() throws { folder = try Fixtures.temporaryDirectory() }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func contents(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// A realm holding one person, and an input with that person again (rejected under skip).
    private func realmWithPerson() throws -> String {
        let realm = path("people.realm")
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        try #"{"id": 1, "name": "Alice"}"#.write(toFile: path("one.json"), atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["import", realm, path("one.json"), "--type", "Person"]).status == 0)
        return realm
    }

    @Test func rejectsNamingTheRealmOrAnInputIsRefusedBeforeAnythingIsRead() throws {
        let realm = try realmWithPerson()
        let realmBytes = try contents("people.realm")
        let onRealm = try Fixtures.run(kura, ["import", realm, path("one.json"), "--type", "Person", "--on-error", "skip", "--rejects", realm])
        #expect(onRealm.status == 64)
        #expect(onRealm.stderr == "kura: error: cannot write rejects to '\(realm)': it is the realm '\(realm)'\n")
        #expect(try contents("people.realm") == realmBytes)

        // The same input under another name (a hard link) is the same file.
        try FileManager.default.linkItem(atPath: path("one.json"), toPath: path("alias.json"))
        let inputBytes = try contents("one.json")
        let onInput = try Fixtures.run(
            kura, ["import", realm, path("one.json"), "--type", "Person", "--on-error", "skip", "--rejects", path("alias.json")])
        #expect(onInput.status == 64)
        #expect(onInput.stderr == "kura: error: cannot write rejects to '\(path("alias.json"))': it is the input '\(path("one.json"))'\n")
        #expect(try contents("one.json") == inputBytes)

        // The default name (INPUT.rejects.jsonl) may be another input.
        try #"{"id": 2, "name": "Bob"}"#.write(toFile: path("one.rejects.jsonl"), atomically: true, encoding: .utf8)
        let defaultName = try Fixtures.run(
            kura, ["import", realm, path("one.json"), path("one.rejects.jsonl"), "--type", "Person", "--on-error", "skip"])
        #expect(defaultName.status == 64)
        #expect(defaultName.stderr
            == "kura: error: cannot write rejects to '\(path("one.rejects.jsonl"))': it is the input '\(path("one.rejects.jsonl"))'\n")
        #expect(try String(contentsOfFile: path("one.rejects.jsonl"), encoding: .utf8) == #"{"id": 2, "name": "Bob"}"#)
    }

    @Test func anExportIsNeverWrittenOverTheRealmOrItsFiles() throws {
        let realm = try realmWithPerson()
        let realmBytes = try contents("people.realm")
        let over = try Fixtures.run(kura, ["export", realm, "-o", realm, "--format", "json"])
        #expect(over.status == 64)
        #expect(over.stderr == "kura: error: cannot write the export to '\(realm)': it is the realm '\(realm)'\n")
        try FileManager.default.createSymbolicLink(atPath: path("link.json"), withDestinationPath: "people.realm")
        let throughLink = try Fixtures.run(kura, ["export", realm, "-o", path("link.json")])
        #expect(throughLink.status == 64)
        #expect(throughLink.stderr == "kura: error: cannot write the export to '\(path("link.json"))': it is the realm '\(realm)'\n")
        // No -wal file while no process has the realm open: the name alone is refused.
        #expect(!FileManager.default.fileExists(atPath: realm + "-wal"))
        let log = try Fixtures.run(kura, ["export", realm, "-o", realm + "-wal", "--format", "json"])
        #expect(log.status == 64)
        #expect(log.stderr == "kura: error: cannot write the export to '\(realm)-wal': it is a file of the realm '\(realm)-wal'\n")
        #expect(!FileManager.default.fileExists(atPath: realm + "-wal"))
        #expect(try contents("people.realm") == realmBytes)
        #expect(try Fixtures.run(kura, ["check", realm]).status == 0)
    }

    @Test func devicesAndFIFOsAreWrittenDirectlyAndFoldersRefused() throws {
        let realm = try realmWithPerson()
        let full = try Fixtures.run(kura, ["export", realm, "-o", "/dev/full", "--format", "json"])
        #expect(full.status == 74)
        #expect(full.stderr == "kura: /dev/full: error: cannot write file: No space left on device\n")
        #expect(try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType == .typeCharacterSpecial)
        let null = try Fixtures.run(kura, ["export", realm, "-o", "/dev/null", "--format", "json"])
        #expect(null.status == 0, "\(null.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType == .typeCharacterSpecial)

        let fifo = path("pipe.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        // The test holds both ends open, so that nothing waits however the export ends.
        let readEnd = open(fifo, O_RDONLY | O_NONBLOCK)
        let writeEnd = open(fifo, O_WRONLY)
        #expect(readEnd >= 0 && writeEnd >= 0)
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) & ~O_NONBLOCK)
        let exported = try Fixtures.run(kura, ["export", realm, "-o", fifo])
        #expect(exported.status == 0, "\(exported.stderr)")
        close(writeEnd)
        let read = String(decoding: FileHandle(fileDescriptor: readEnd, closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
        #expect(read.hasPrefix(#"{"$type":"Person","id":1,"name":"Alice""#))
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)

        let intoFolder = try Fixtures.run(kura, ["export", realm, "-o", folder.path, "--format", "json"])
        #expect(intoFolder.status == 64)
        #expect(intoFolder.stderr == "kura: error: cannot write the export to '\(folder.path)': it is a folder\n")
    }

    @Test func aSymbolicLinksTargetIsReplacedAndTheLinkKept() throws {
        let realm = try realmWithPerson()
        try "old".write(toFile: path("target.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path("link.json"), withDestinationPath: "target.json")
        let result = try Fixtures.run(kura, ["export", realm, "-o", path("link.json")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.json")) == "target.json")
        #expect(try String(contentsOfFile: path("target.json"), encoding: .utf8).hasPrefix("[\n{\"$type\":\"Person\",\"id\":1,"))
        // Nothing but the files the test made: no temporary file stays.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            == ["link.json", "one.json", "people.realm", "target.json"])
    }

    @Test func theRejectsFileAppearsOnlyWithTheFirstReject() throws {
        let realm = try realmWithPerson()
        try #"{"id": 5, "name": "Eve"}"#.write(toFile: path("good.json"), atomically: true, encoding: .utf8)
        try "earlier rejects\n".write(toFile: path("kept.jsonl"), atomically: true, encoding: .utf8)
        let clean = try Fixtures.run(
            kura, ["import", realm, path("good.json"), "--type", "Person", "--on-error", "skip", "--rejects", path("kept.jsonl")])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(try String(contentsOfFile: path("kept.jsonl"), encoding: .utf8) == "earlier rejects\n")
        #expect(!FileManager.default.fileExists(atPath: path("good.rejects.jsonl")))
        let noDefault = try Fixtures.run(kura, ["import", realm, path("good.json"), "--type", "Person", "--on-error", "skip", "--mode", "update"])
        #expect(noDefault.status == 0)
        #expect(!FileManager.default.fileExists(atPath: path("good.rejects.jsonl")))

        let rejected = try Fixtures.run(kura, ["import", realm, path("one.json"), "--type", "Person", "--on-error", "skip"])
        #expect(rejected.status == 0)
        #expect(rejected.stdout.hasSuffix("1 document, 26 bytes; 1 rejected, written to \(path("one.rejects.jsonl"))\n"))
        #expect(try String(contentsOfFile: path("one.rejects.jsonl"), encoding: .utf8).hasPrefix(#"{"$errors":["#))
    }

    @Test func initRefusesAnSQLiteFileThatIsNotARealm() throws {
        let file = path("other.db")
        let queue = try DatabaseQueue(path: file)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')") }
        try queue.close()
        let before = try contents("other.db")
        let refused = try Fixtures.run(kura, ["init", file, "--schema", Fixtures.samplesSchemaPath])
        #expect(refused.status == 65)
        #expect(refused.stderr == "kura: error: '\(file)' is not a realm: it is an SQLite database without Kura's tables\n")
        #expect(try contents("other.db") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["other.db"])
    }
}
