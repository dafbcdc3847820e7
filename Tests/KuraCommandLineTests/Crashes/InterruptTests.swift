import Foundation
import KuraTestSupport
import Testing

/// Interrupted work leaves nothing behind: SIGINT or SIGTERM during an export
/// removes its partial file; a stopped import says so in one line and exits 128 + the signal.
@Suite struct InterruptTests {
    let kura = Fixtures.executable("kura")

    /// Starts `kura` with `arguments`, its standard error in a pipe.
    private func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: kura)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    /// Waits (at most a minute) until `condition` holds.
    private func waitUntil(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if try condition() { return true }
            usleep(2000)
        }
        return false
    }

    /// A realm in `folder` with enough objects that an export or copy is still at work when the
    /// signal comes; the input it was imported from is removed.
    private func toysRealm(in folder: URL) throws -> String {
        let realm = folder.appendingPathComponent("toys.realm").path
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        let input = folder.appendingPathComponent("toys.jsonl").path
        var lines = ""
        for index in 0..<150_000 { lines += "{\"name\": \"toy number \(index), with a name long enough to take some time\"}\n" }
        try lines.write(toFile: input, atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["import", realm, input, "--type", "DogToy"]).status == 0)
        try FileManager.default.removeItem(atPath: input)
        return realm
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedExportRemovesItsPartialFile(signal: Int32) throws {
        let folder = try Fixtures.temporaryDirectory()
        let realm = try toysRealm(in: folder)
        try "an earlier export\n".write(toFile: folder.appendingPathComponent("out.json").path, atomically: true, encoding: .utf8)

        let output = folder.appendingPathComponent("out.json").path
        let (process, errors) = try start(["export", realm, "-o", output])
        let partial = { try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasPrefix(".out.json.kura-") } }
        #expect(try waitUntil(partial), "the export never started writing")
        kill(process.processIdentifier, signal)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        #expect(message == "kura: export interrupted: '\(output)' was not written (\(signal == SIGINT ? "SIGINT" : "SIGTERM"))\n")
        #expect(try !partial())
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "an earlier export\n")
    }

    @Test func anInterruptedCopyLeavesNoHalfMadeRealm() throws {
        let folder = try Fixtures.temporaryDirectory()
        let realm = try toysRealm(in: folder)
        let destination = folder.appendingPathComponent("copy.realm").path
        let (process, errors) = try start(["copy", realm, destination, "--type", "DogToy"])
        let building = { try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasPrefix(".copy.realm.kura-new-") } }
        #expect(try waitUntil(building), "the copy never started building")
        kill(process.processIdentifier, SIGINT)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(message == "kura: copy interrupted: nothing was written (SIGINT)\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix("toys.realm") }
        #expect(left == [], "left behind: \(left)")
    }

    @Test(arguments: [("stop", "nothing was written"),
                      ("skip", "the batches committed before it stay in the realm, the rest was not written")])
    func aStoppedImportSaysSoInOneLine(onError: String, outcome: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        let realm = folder.appendingPathComponent("toys.realm").path
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        // A FIFO as the input: the import waits for more documents while the signal comes.
        let input = folder.appendingPathComponent("toys.jsonl").path
        #expect(mkfifo(input, 0o600) == 0)
        let (process, errors) = try start(["import", realm, input, "--type", "DogToy", "--on-error", onError])
        // Opened without waiting, once the import has opened the FIFO to read it.
        var descriptor: Int32 = -1
        #expect(waitUntil {
            descriptor = open(input, O_WRONLY | O_NONBLOCK)
            return descriptor >= 0
        }, "the import never opened its input")
        let writer = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        writer.write(Data("{\"name\": \"ball\"}\n{\"name\": 7}\n".utf8))
        usleep(500_000)
        kill(process.processIdentifier, SIGINT)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try writer.close()
        #expect(process.terminationStatus == 130)
        #expect(message == "kura: import interrupted: \(outcome) (SIGINT)\n")
        // No rejects file half written, and the realm is whole.
        #expect(try !FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.contains("rejects") })
        let check = try Fixtures.run(kura, ["check", realm])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout == "\(realm): ok (0 objects in 5 types, schema version 1)\n")
    }
}
