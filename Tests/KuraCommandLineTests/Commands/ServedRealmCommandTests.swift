import Foundation
import KuraTestSupport
import Testing

/// `kura export` and `kura import` of a realm served by `kura serve`, named by its URL: the same
/// bytes, summaries, messages and exit codes as for the realm's file, and one clear error for each
/// way reaching it fails.
@Suite struct ServedRealmCommandTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    private func kura(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Fixtures.run(fixture.kura, arguments, currentDirectory: fixture.folder, environment: environment)
    }

    private func url(_ server: ServerProcess, _ realm: String = "zoo") -> String {
        "http://127.0.0.1:\(server.port)/v1/realms/\(realm)"
    }

    @Test func anExportOfAServedRealmIsTheExportOfItsFileByteForByte() throws {
        let server = try fixture.serve()
        let choices: [[String]] = [
            ["--format", "json"], ["--format", "jsonl"], ["--format", "yaml"], ["--pretty", "--format", "json"],
            ["--type", "Dog", "--where", "age >= 1", "--sort", "name desc", "--limit", "5", "--format", "jsonl"],
            ["--type", "Person", "--format", "yaml"],
        ]
        for options in choices {
            let remote = try kura(["export", url(server), "--output", "remote.out"] + options)
            let local = try kura(["export", "zoo.realm", "--output", "local.out"] + options)
            #expect(remote.status == 0, "\(options): \(remote.stderr)")
            #expect(local.status == 0, "\(options): \(local.stderr)")
            let remoteBytes = try Data(contentsOf: fixture.folder.appendingPathComponent("remote.out"))
            #expect(!remoteBytes.isEmpty)
            #expect(remoteBytes == (try Data(contentsOf: fixture.folder.appendingPathComponent("local.out"))), "\(options)")
            #expect(remote.stderr.replacingOccurrences(of: "remote.out", with: "local.out") == local.stderr, "\(options)")
        }
        // To standard output as well, with the summary on standard error.
        let toStandardOutput = try kura(["export", url(server), "--type", "Person", "--format", "jsonl"])
        #expect(toStandardOutput.status == 0)
        let locally = try kura(["export", "zoo.realm", "--type", "Person", "--format", "jsonl"])
        #expect(toStandardOutput.stdout == locally.stdout)
        #expect(toStandardOutput.stderr == locally.stderr)
        #expect(toStandardOutput.stderr == "Exported 3 documents (Person: 3), 868 bytes\n")
        #expect(server.stop() == 0)
    }

    @Test func anImportIntoAServedRealmReportsAsAnImportIntoItsFile() throws {
        try fixture.makeRealm("twin.realm")
        let people = fixture.folder.appendingPathComponent("more.jsonl")
        try """
            {"id": 40, "name": "Dora", "dogs": [{"name": "Spot", "age": 2}]}
            {"id": 1, "name": "Alice again"}

            """.write(to: people, atomically: true, encoding: .utf8)
        let server = try fixture.serve()
        let remote = try kura(["import", url(server), people.path, "--type", "Person", "--mode", "update"])
        let local = try kura(["import", "twin.realm", people.path, "--type", "Person", "--mode", "update"])
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(remote.stdout == local.stdout)
        #expect(remote.stdout == "Dog: 1 inserted, 0 updated, 0 unchanged\nPerson: 1 inserted, 1 updated, 0 unchanged\n2 documents, 98 bytes\n")
        // A bad document: the same message, placed in the file, the same exit code, nothing written.
        let bad = Fixtures.packageRoot.appendingPathComponent("Samples/bad-people.json").path
        let refused = try kura(["import", url(server), bad, "--type", "Person"])
        let refusedLocally = try kura(["import", "twin.realm", bad, "--type", "Person"])
        #expect(refused.status == 65)
        #expect(refused.stderr == refusedLocally.stderr)
        #expect(refused.stderr.hasPrefix("kura: \(bad):2:63: error: $[0].dogs[0].age: expected int, found string \"three\""))
        #expect(try kura(["export", url(server), "--type", "Person", "--format", "jsonl"]).stdout.split(separator: "\n").count == 4)
        // Under --on-error skip, in batches: the good documents written, the bad ones read again
        // from the file into the rejects file, as a local import writes them.
        let mixed = fixture.folder.appendingPathComponent("mixed.json")
        try """
            [{"id": 50, "name": "Erin"},
             {"id": 51, "name": "Finn", "dogs": [{"name": "Bo", "age": "two"}]},
             {"id": 52, "name": "Gus"}, {"id": "53", "name": "Hal"},
             {"id": 54, "name": "Ida"}]
            """.write(to: mixed, atomically: true, encoding: .utf8)
        let skipping = ["--type", "Person", "--on-error", "skip", "--batch-size", "2"]
        let skipped = try kura(["import", url(server), mixed.path, "--rejects", "remote.rejects.jsonl"] + skipping)
        let skippedLocally = try kura(["import", "twin.realm", mixed.path, "--rejects", "local.rejects.jsonl"] + skipping)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout == skippedLocally.stdout.replacingOccurrences(of: "local.rejects", with: "remote.rejects"))
        #expect(skipped.stdout.hasPrefix("Person: 3 inserted, 0 updated, 0 unchanged, 2 rejected\n"))
        let rejects = try String(contentsOf: fixture.folder.appendingPathComponent("remote.rejects.jsonl"), encoding: .utf8)
        #expect(rejects == (try String(contentsOf: fixture.folder.appendingPathComponent("local.rejects.jsonl"), encoding: .utf8)))
        #expect(rejects.split(separator: "\n").count == 2)
        #expect(rejects.hasPrefix(#"{"$errors":["\#(mixed.path):2:60: error: $[1].dogs[0].age: expected int, found string \"two\""],"id":51"#))
        let newcomers = ["--type", "Person", "--where", "id >= 50", "--format", "jsonl"]
        // The same objects but for the time each was created.
        func withoutCreation(_ text: String) -> String { text.replacing(#/"createdAt":\{[^}]*\}/#, with: "") }
        let written = try kura(["export", url(server)] + newcomers).stdout
        #expect(withoutCreation(written) == withoutCreation(try kura(["export", "twin.realm"] + newcomers).stdout))
        #expect(written.split(separator: "\n").map { $0.prefix(9) } == [#"{"id":50,"#, #"{"id":52,"#, #"{"id":54,"#])
        // What a served realm does not take is a usage error before anything is sent.
        let two = try kura(["import", url(server), people.path, mixed.path, "--type", "Person"])
        #expect(two.status == 64)
        #expect(two.stderr == "kura: error: a served realm takes one file per import\n")
        #expect(server.stop() == 0)
    }

    @Test func schemaCheckAndDeleteOfAServedRealmAnswerAsForItsFile() throws {
        try fixture.makeRealm("twin.realm")
        let server = try fixture.serve()
        let schema = try kura(["schema", url(server)])
        #expect(schema.status == 0)
        #expect(schema.stdout == (try kura(["schema", "twin.realm"])).stdout)
        let check = try kura(["check", url(server)])
        #expect(check.status == 0)
        #expect(check.stdout == "\(url(server)): ok (8 objects in 5 types, schema version 1)\n")
        #expect(check.stdout.replacingOccurrences(of: url(server), with: "twin.realm") == (try kura(["check", "twin.realm"])).stdout)
        for realm in [url(server), "twin.realm"] {
            let counted = try kura(["delete", realm, "--type", "Person", "--where", "id >= 2", "--dry-run"])
            #expect(counted.stdout == "dry run: nothing was written\nPerson: 2 would be deleted\n", "\(realm)")
            let deleted = try kura(["delete", realm, "--type", "Person", "--where", "id >= 2"])
            #expect(deleted.stdout == "Person: 2 deleted\n", "\(realm): \(deleted.stderr)")
        }
        #expect(try kura(["export", url(server)]).stdout == (try kura(["export", "twin.realm"])).stdout)
        let badPredicate = try kura(["delete", url(server), "--type", "Person", "--where", "id >>= 2"])
        #expect(badPredicate.status == 64)
        #expect(badPredicate.stderr == "kura: where: column 5: error: expected a value after '>', found '>='\n")
        let noType = try kura(["export", url(server), "--type", "Nope"])
        #expect(noType.status == 64)
        #expect(noType.stderr == (try kura(["export", "twin.realm", "--type", "Nope"])).stderr)
        // Made and migrated on the server, copied by export and import: said before anything is tried.
        let initialised = try kura(["init", url(server), "--schema", "zoo.yaml"])
        #expect(initialised.status == 64)
        #expect(initialised.stderr == "kura: error: a served realm is made on its server: kura init there, then serve it\n")
        let toItself = try kura(["copy", url(server), url(server)])
        #expect(toItself.status == 64)
        #expect(toItself.stderr == "kura: error: the source and the destination are the same realm\n")
        #expect(server.stop() == 0)
    }

    @Test func aCopyIntoAServedRealmKeepsTheGraphAsACopyIntoAFileDoes() throws {
        let (source, schema) = try GraphFixture.makeRealm(in: fixture.folder)
        for name in ["whole.realm", "owner.realm", "wholeTwin.realm", "ownerTwin.realm"] {
            #expect(try kura(["init", name, "--schema", schema]).status == 0)
        }
        let server = try fixture.serve(["whole.realm", "owner.realm", "zoo.realm"])
        // The whole realm: cycles, shared and keyless objects, mixed links, a chain too deep to nest.
        let whole = try kura(["copy", source, url(server, "whole")])
        let wholeTwin = try kura(["copy", source, "wholeTwin.realm"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout == wholeTwin.stdout)
        let exported = try kura(["export", source, "--format", "jsonl"]).stdout
        #expect(try kura(["export", url(server, "whole"), "--format", "jsonl"]).stdout == exported)
        // One owner and everything it links to: its rival, the nodes, the objects in mixed values.
        let owner = try kura(["copy", source, url(server, "owner"), "--type", "Owner", "--where", "name == 'Bo'"])
        let ownerTwin = try kura(["copy", source, "ownerTwin.realm", "--type", "Owner", "--where", "name == 'Bo'"])
        #expect(owner.status == 0, "\(owner.stderr)")
        #expect(owner.stdout == ownerTwin.stdout)
        #expect(try kura(["export", url(server, "owner"), "--format", "jsonl"]).stdout
            == (try kura(["export", "ownerTwin.realm", "--format", "jsonl"])).stdout)
        // Again under update: nothing changes the second time.
        let again = try kura(["copy", source, url(server, "owner"), "--type", "Owner", "--where", "name == 'Bo'", "--mode", "update"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stdout.contains(" 1 inserted") && !again.stdout.contains(" 1 updated"), "\(again.stdout)")
        #expect(try kura(["export", url(server, "owner"), "--format", "jsonl"]).stdout
            == (try kura(["export", "ownerTwin.realm", "--format", "jsonl"])).stdout)
        // Into a realm whose schema cannot hold the copy: refused whole, nothing written.
        let refused = try kura(["copy", source, url(server, "zoo")])
        #expect(refused.status == 65)
        #expect(refused.stderr == "kura: error: the destination schema cannot hold the copy: the destination has no type 'Owner'; "
            + "the destination has no type 'Node'; the destination has no type 'Spot'\n")
        #expect(try kura(["export", url(server, "zoo")]).stdout == (try kura(["export", "zoo.realm"])).stdout)
        #expect(server.stop() == 0)
    }

    @Test func aGraphCopiedLocalToServerToServerToLocalKeepsEveryByte() throws {
        let (source, schema) = try GraphFixture.makeRealm(in: fixture.folder)
        let elsewhere = try ServiceFixture(makingSampleRealm: false)
        #expect(try kura(["init", "a.realm", "--schema", schema]).status == 0)
        #expect(try Fixtures.run(fixture.kura, ["init", elsewhere.path("b.realm"), "--schema", schema]).status == 0)
        let serverA = try fixture.serve(["a.realm", "zoo.realm"])
        let serverB = try elsewhere.serve(["b.realm"])
        let (a, b) = (url(serverA, "a"), url(serverB, "b"))
        let exported = try kura(["export", source, "--format", "jsonl"]).stdout
        let hops = [(source, a), (a, b), (b, "back.realm")]
        for (from, into) in hops {
            let copied = try kura(["copy", from, into])
            #expect(copied.status == 0, "\(from) → \(into): \(copied.stderr)")
            let created = into == "back.realm" ? "back.realm: created with the source's schema\n" : ""
            #expect(copied.stdout == created + "Node: 106 inserted, 0 updated, 0 unchanged\nOwner: 3 inserted, 0 updated, 0 unchanged\n"
                + "Spot: 2 inserted, 0 updated, 0 unchanged\n",
                "\(from) → \(into): \(copied.stdout)")
            #expect(try kura(["export", into, "--format", "jsonl"]).stdout == exported, "\(from) → \(into)")
        }
        // Under update, each hop again changes nothing, the deep chain's documents included.
        let twice = try kura(["copy", source, "twin.realm"]).status == 0 ? try kura(["copy", source, "twin.realm", "--mode", "update"]).stdout : ""
        #expect(twice == "Node: 0 inserted, 0 updated, 106 unchanged\nOwner: 0 inserted, 0 updated, 3 unchanged\n"
            + "Spot: 0 inserted, 0 updated, 2 unchanged\n", "\(twice)")
        for (from, into) in hops {
            let again = try kura(["copy", from, into, "--mode", "update"])
            #expect(again.status == 0, "\(from) → \(into): \(again.stderr)")
            #expect(again.stdout == twice, "\(from) → \(into): \(again.stdout)")
            #expect(try kura(["export", into, "--format", "jsonl"]).stdout == exported, "\(from) → \(into)")
        }
        // One owner and what it links to, out of a server: as a copy between files takes it.
        let selection = ["--type", "Owner", "--where", "name == 'Bo'"]
        let served = try kura(["copy", b, "bo.realm"] + selection)
        let local = try kura(["copy", source, "boTwin.realm"] + selection)
        #expect(served.status == 0, "\(served.stderr)")
        #expect(served.stdout == local.stdout.replacingOccurrences(of: "boTwin.realm", with: "bo.realm"))
        #expect(try kura(["export", "bo.realm", "--format", "jsonl"]).stdout == (try kura(["export", "boTwin.realm", "--format", "jsonl"])).stdout)
        // A destination that cannot hold the copy, on either side: refused before anything is sent.
        for (from, into) in [(b, url(serverA, "zoo")), (b, "zoo.realm")] {
            let refused = try kura(["copy", from, into])
            #expect(refused.status == 65, "\(into)")
            #expect(refused.stderr == "kura: error: the destination schema cannot hold the copy: the destination has no type 'Owner'; "
                + "the destination has no type 'Node'; the destination has no type 'Spot'\n", "\(into)")
        }
        #expect(try kura(["export", url(serverA, "zoo")]).stdout == (try kura(["export", "zoo.realm"])).stdout)
        let noType = try kura(["copy", b, "none.realm", "--type", "Nope"])
        #expect(noType.status == 64)
        #expect(noType.stderr == (try kura(["copy", source, "none.realm", "--type", "Nope"])).stderr)
        #expect(!FileManager.default.fileExists(atPath: fixture.path("none.realm")))
        #expect(serverA.stop() == 0)
        #expect(serverB.stop() == 0)
    }

    @Test func aCopyWhoseServerDiesMidwayWritesNothing() throws {
        let people = (1...60_000).map { #"{"id": \#($0), "name": "Person \#($0) with a name long enough to take some time"}"# }
        try people.joined(separator: "\n").write(toFile: fixture.path("many.jsonl"), atomically: true, encoding: .utf8)
        try fixture.makeRealm("many.realm")
        #expect(try kura(["import", "many.realm", "many.jsonl", "--type", "Person", "--mode", "update"]).status == 0)
        try fixture.makeRealm("target.realm")
        let before = try kura(["export", "target.realm"]).stdout
        // Out of a server that dies mid-stream: the local destination is as it was, a new one never appears.
        for destination in ["target.realm", "fresh.realm"] {
            let server = try fixture.serve(["many.realm"])
            let copy = Process()
            copy.executableURL = URL(fileURLWithPath: fixture.kura)
            copy.arguments = ["copy", url(server, "many"), destination, "--mode", "update"]
            copy.currentDirectoryURL = fixture.folder
            let errors = Pipe()
            copy.standardError = errors
            copy.standardOutput = FileHandle.nullDevice
            try copy.run()
            Thread.sleep(forTimeInterval: 0.4)
            kill(server.process.processIdentifier, SIGKILL)
            copy.waitUntilExit()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(copy.terminationStatus == 74, "\(destination): \(message)")
            // Killed before the export's request connected, the connection is refused instead of lost.
            #expect(message.hasPrefix("kura: error: the connection to realm '\(url(server, "many"))' was lost")
                || message == "kura: error: cannot reach realm '\(url(server, "many"))': the connection was refused\n", "\(message)")
        }
        #expect(try kura(["export", "target.realm"]).stdout == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.path("fresh.realm")))
        // Into a server that dies mid-stream: restarted, it holds what it held.
        let server = try fixture.serve(["target.realm"])
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: fixture.kura)
        copy.arguments = ["copy", "many.realm", url(server, "target"), "--mode", "update"]
        copy.currentDirectoryURL = fixture.folder
        copy.standardError = FileHandle.nullDevice
        copy.standardOutput = FileHandle.nullDevice
        try copy.run()
        Thread.sleep(forTimeInterval: 0.4)
        kill(server.process.processIdentifier, SIGKILL)
        copy.waitUntilExit()
        #expect(copy.terminationStatus == 74)
        #expect(try kura(["export", "target.realm"]).stdout == before)
        let check = try kura(["check", "target.realm"])
        #expect(check.status == 0, "\(check.stdout)")
        // An import under skip commits batch by batch: the message says that those stay.
        let restarted = try fixture.serve(["target.realm"])
        let skipping = Process()
        skipping.executableURL = URL(fileURLWithPath: fixture.kura)
        skipping.arguments = ["import", url(restarted, "target"), "many.jsonl", "--type", "Person", "--on-error", "skip", "--batch-size", "100"]
        skipping.currentDirectoryURL = fixture.folder
        let errors = Pipe()
        skipping.standardError = errors
        skipping.standardOutput = FileHandle.nullDevice
        try skipping.run()
        // Killed once the import is under way (the server lists it), however slowly kura started.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, try !restarted.request("/v1/realms/target/imports").text.contains(#""id""#) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.2)
        kill(restarted.process.processIdentifier, SIGKILL)
        skipping.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(skipping.terminationStatus == 74, "\(message)")
        #expect(message.hasPrefix("kura: error: the connection to realm '\(url(restarted, "target"))' was lost"), "\(message)")
        #expect(message.hasSuffix("; the batches the server committed before stay in the realm\n"), "\(message)")
        #expect(try kura(["check", "target.realm"]).status == 0)
    }

    @Test func eachWayOfNotReachingARealmIsOneClearError() throws {
        let server = try fixture.serve()
        let missing = try kura(["export", url(server, "nowhere")])
        #expect(missing.status == 66)
        #expect(missing.stderr == "kura: error: no realm at '\(url(server, "nowhere"))': the server serves no realm 'nowhere'\n")
        #expect(server.stop() == 0)
        let closed = try kura(["export", url(server)])
        #expect(closed.status == 74)
        #expect(closed.stderr == "kura: error: cannot reach realm '\(url(server))': the connection was refused\n")
        let plain = try kura(["export", "http://kura.example.com:8080/v1/realms/zoo"])
        #expect(plain.status == 64)
        #expect(plain.stderr.hasSuffix("plain http is for a server on this machine (localhost, 127.0.0.1, ::1); use https\n"))
        let withSecret = try kura(["export", "https://loader:s3cret@kura.example.com/v1/realms/zoo"])
        #expect(withSecret.status == 64)
        #expect(!withSecret.stderr.contains("s3cret"))
        #expect(withSecret.stderr.hasSuffix("a URL carries no user or token; give the token in KURA_TOKEN or with --token-file\n"))
        let notARealm = try kura(["export", "https://kura.example.com/v1/zoo"])
        #expect(notARealm.stderr == "kura: error: 'https://kura.example.com/v1/zoo' is not a served realm's URL: its path must be /v1/realms/NAME\n")
    }

    @Test func theTokenComesFromTheEnvironmentOrAFileAndAWrongOneIsRefused() throws {
        let issued = try kura(["token", "new", "reader", "--scope", "read"])
        let lines = issued.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        try fixture.writeConfig("server:\n  realms: {zoo: zoo.realm}\n  tokens:\n    \(lines[1])\n")
        let server = try fixture.serve([])
        let without = try kura(["export", url(server), "--type", "Person"])
        #expect(without.status == 64)
        #expect(without.stderr == "kura: error: realm '\(url(server))' refused the token: a bearer token is needed: send Authorization: Bearer TOKEN\n")
        let wrong = try kura(["export", url(server), "--type", "Person"], environment: ["KURA_TOKEN": "not-the-token"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr == "kura: error: realm '\(url(server))' refused the token: the bearer token is not one of this server's tokens\n")
        #expect(!wrong.stderr.contains("not-the-token"))
        let fromEnvironment = try kura(["export", url(server), "--type", "Person"], environment: ["KURA_TOKEN": lines[0]])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        let tokenFile = fixture.folder.appendingPathComponent("token")
        try (lines[0] + "\n").write(to: tokenFile, atomically: true, encoding: .utf8)
        let fromFile = try kura(["export", url(server), "--type", "Person", "--token-file", tokenFile.path])
        #expect(fromFile.stdout == fromEnvironment.stdout)
        // A copy out of the server takes the source's token from --source-token-file; reading is enough.
        let copied = try kura(["copy", url(server), "fromServer.realm", "--type", "Person", "--source-token-file", tokenFile.path])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.hasPrefix("fromServer.realm: created with the source's schema\n"))
        let unread = try kura(["copy", url(server), "refused.realm"])
        #expect(unread.status == 64)
        #expect(unread.stderr == "kura: error: realm '\(url(server))' refused the token: a bearer token is needed: send Authorization: Bearer TOKEN\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.path("refused.realm")))
        // A read token cannot import.
        let people = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        let refused = try kura(["import", url(server), people, "--type", "Person", "--token-file", tokenFile.path])
        #expect(refused.status == 64)
        #expect(refused.stderr == "kura: error: realm '\(url(server))' refused the request: token 'reader' has scope read; this needs write\n")
        #expect(server.stop() == 0)
    }
}
