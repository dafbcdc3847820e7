import Foundation
import KuraTestSupport
import Testing

/// `kura import` into a PostgreSQL realm under bad conditions: the importer killed with SIGKILL,
/// and its connection ended by the server while it copies rows. Only whole documents are left (none
/// at all from an atomic import), `kura check` finds the realm clean, and the next import works.
@Suite struct PostgresFaultTests {
    let kura = Fixtures.executable("kura")
    /// People in the realm once an import of the whole input ends.
    static let peopleInAll = 12_000

    /// People `range`, one JSON document a line, each with an embedded address and two dogs.
    private func people(_ range: ClosedRange<Int>) -> String {
        var lines = ""
        for id in range {
            lines += #"{"id": \#(id), "name": "Person \#(id)", "address": {"street": "\#(id) Main St", "city": "Lisbon"}, "#
            lines += #""dogs": [{"name": "Dog \#(id)-0", "age": 3}, {"name": "Dog \#(id)-1", "age": 4}]}"# + "\n"
        }
        return lines
    }

    /// A new realm of the samples schema holding people 1 to 3, a file of many more people, and
    /// the name the importer's session shows the server.
    private func realmAndInput(_ label: String) throws -> (url: String, input: String, application: String) {
        let folder = try Fixtures.temporaryDirectory()
        let url = PostgresTestServer.freshRealmURL(label)
        #expect(try Fixtures.run(kura, ["init", url, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        let first = folder.appendingPathComponent("first.jsonl").path
        try people(1...3).write(toFile: first, atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["import", url, first, "--type", "Person"]).status == 0)
        let input = folder.appendingPathComponent("many.jsonl").path
        try people(4...Self.peopleInAll).write(toFile: input, atomically: true, encoding: .utf8)
        return (url, input, "kura_\(label)_\(UUID().uuidString.prefix(8).lowercased())")
    }

    /// Starts `kura import` of `input` into `url` as `application`, and waits until it has written
    /// to the realm (its transaction has an id) and a while longer.
    private func startImport(_ url: String, _ input: String, application: String, _ extra: [String] = []) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: kura)
        process.arguments = ["import", url + "&application_name=" + application, input, "--type", "Person"] + extra
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var writing = false
        while !writing, Date() < deadline, process.isRunning {
            writing = try PostgresTestServer.psql(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(application)' AND backend_xid IS NOT NULL") != "0"
            if !writing { usleep(20_000) }
        }
        #expect(writing, "the import never wrote")
        // Well into its work: rows sent, and under skip, batches committed.
        usleep(1_500_000)
        #expect(process.isRunning, "the import ended before it could be interrupted")
        return (process, errors)
    }

    /// The people the realm holds, by id, each checked whole against the document it came from.
    private func expectOnlyWholePeople(in url: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<Int> {
        let exported = try Fixtures.run(kura, ["export", url, "--type", "Person", "--format", "jsonl"])
        #expect(exported.status == 0, "\(exported.stderr)", sourceLocation: sourceLocation)
        var ids = Set<Int>()
        for line in exported.stdout.split(separator: "\n") {
            let document = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try #require(document["id"] as? Int)
            let address = document["address"] as? [String: Any]
            let dogs = (document["dogs"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(document["name"] as? String == "Person \(id)", sourceLocation: sourceLocation)
            #expect(address?["street"] as? String == "\(id) Main St", sourceLocation: sourceLocation)
            #expect(dogs == ["Dog \(id)-0", "Dog \(id)-1"], "person \(id)", sourceLocation: sourceLocation)
            ids.insert(id)
        }
        let check = try Fixtures.run(kura, ["check", url])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
        return ids
    }

    /// Imports `input` again, which must now complete, and checks the realm.
    private func expectNextImportCompletes(_ url: String, _ input: String, _ extra: [String] = []) throws {
        let next = try Fixtures.run(kura, ["import", url, input, "--type", "Person"] + extra)
        #expect(next.status == 0, "\(next.stderr)")
        let schema = String(url.split(separator: "=").last ?? "")
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM \"\(schema)\".\"Person\"") == String(Self.peopleInAll))
        let check = try Fixtures.run(kura, ["check", url])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test(arguments: ["stop", "skip"])
    func aKilledImporterLeavesOnlyWholeDocumentsAndACleanRealm(onError: String) throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, input, application) = try realmAndInput("killed")
        let (process, _) = try startImport(url, input, application: application, ["--on-error", onError])
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let ids = try expectOnlyWholePeople(in: url)
        // Atomic: nothing of the killed import. Under skip, whole batches it committed, in order.
        if onError == "stop" {
            #expect(ids == [1, 2, 3])
        } else {
            #expect(ids == Set(1...max(3, ids.max() ?? 0)))
        }
        try expectNextImportCompletes(url, input, ["--skip-existing"])
    }

    @Test func anImportWhoseConnectionTheServerEndsSaysSoAndWritesNothing() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, input, application) = try realmAndInput("severed")
        let (process, errors) = try startImport(url, input, application: application)
        try PostgresTestServer.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(application)'")
        // The driver may print a line of its own first (a continuation it leaks when the connection
        // closes during a COPY); Kura's message is the last line.
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let message = (output.split(separator: "\n").last.map(String.init) ?? "") + "\n"
        process.waitUntilExit()
        #expect(process.terminationStatus == 74)
        // Lost before or after the server said why (57P01, terminated by an administrator's command).
        #expect(message.hasPrefix("kura: error: the connection to realm '\(url)' was lost"), "\(message)")
        #expect(message.contains("(SQL: COPY "), "\(message)")
        #expect(message.hasSuffix("); nothing was committed\n"), "\(message)")
        #expect(try expectOnlyWholePeople(in: url) == [1, 2, 3])
        try expectNextImportCompletes(url, input)
    }
}
