import Foundation
import Kura
import KuraTestSupport
import Testing

/// Faults during imports over HTTP: SIGTERM with an import that cannot finish within
/// `shutdownGrace`, and SIGKILL of the server at random points of imports. The realm is left in a
/// committed state each time: whole documents only, and `kura check` ok.
@Suite struct ServiceFaultTests {
    /// A document of `id` with an embedded address and one dog, so that a part of one would show.
    private static func document(_ id: Int) -> String {
        #"{"id": \#(id), "name": "P\#(id)", "address": {"city": "Oslo"}, "dogs": [{"name": "D\#(id)", "age": 2}]}"# + "\n"
    }

    /// Sends the head of an NDJSON import of `bodyBytes` bytes into realm zoo.
    private static func startImport(port: Int, onError: String, bodyBytes: Int) throws -> RawClient {
        let client = try RawClient(port: port)
        try client.send(Array((
            "POST /v1/realms/zoo/import?type=Person&onError=\(onError) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Content-Type: application/x-ndjson\r\nContent-Length: \(bodyBytes)\r\n\r\n").utf8))
        return client
    }

    /// Persons, addresses and dogs in the realm at `path`.
    private static func counts(_ path: String) throws -> [Int] {
        let realm = try Realm(path: path)
        return [try realm.count("Person"), try realm.count("Address"), try realm.count("Dog")]
    }

    @Test func anImportStillRunningWhenTheGraceEndsIsRolledBackAndTheServerExits0() throws {
        let fixture = try ServiceFixture()
        try fixture.writeConfig("server:\n  shutdownGrace: 1\n")
        let before = try Self.counts(fixture.path("zoo.realm"))
        let server = try fixture.serve()
        let part = Array((100..<2100).map(Self.document).joined().utf8)
        // Half the body, then nothing: the import waits for the rest until the grace is over.
        let client = try Self.startImport(port: server.port, onError: "stop", bodyBytes: part.count * 2)
        try client.send(part)
        Thread.sleep(forTimeInterval: 0.5)
        let took = server.stopTimed()
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
        #expect(took >= 0.9 && took < 5, "the server took \(took) s to stop with shutdownGrace 1")
        #expect(try Self.counts(fixture.path("zoo.realm")) == before)
        let check = try Fixtures.run(fixture.kura, ["check", fixture.path("zoo.realm")])
        #expect(check.status == 0, "\(check.stdout)")
        // The server ended the request, not the client: a 503, which is no failure of the server's.
        #expect(server.log.contains("POST /v1/realms/zoo/import 503"), "\(server.log)")
        #expect(!server.log.contains(" error "), "\(server.log)")
    }

    /// A `skip` import commits every `batchSize` (10,000) documents; a `stop` import once, at its end.
    static let batchSize = 10_000

    /// Where a trial's kill lands.
    enum KillPoint: CaseIterable {
        /// While the body arrives: after a random share of it and a random pause.
        case midBody
        /// After the whole body, a random pause later: while it is parsed, written or committed.
        case afterBody
        /// Once something was committed: the first batch under skip, the answer under stop.
        case afterCommit
    }

    static let trials = 9

    @Test func sigkillDuringImportsLeavesWholeDocumentsAndAConsistentRealm() throws {
        var random = SplitMix64(seed: 0x5EED_2400)
        for trial in 0..<Self.trials {
            let onError = trial % 2 == 0 ? "stop" : "skip"
            let point = KillPoint.allCases[trial % KillPoint.allCases.count]
            // Enough documents under skip for one batch to commit before the body ends.
            let total = onError == "stop" ? 3000 : Self.batchSize + 2000
            let fixture = try ServiceFixture()
            let path = fixture.path("zoo.realm")
            let before = try Self.counts(path)
            let server = try fixture.serve()
            let body = Array((1000..<(1000 + total)).map(Self.document).joined().utf8)
            let client = try Self.startImport(port: server.port, onError: onError, bodyBytes: body.count)
            let sent = point == .midBody ? body.count * (3 + random.below(7)) / 10 : body.count
            var offset = 0
            while offset < sent {
                let end = min(sent, offset + 64 * 1024)
                try client.send(Array(body[offset..<end]))
                offset = end
                Thread.sleep(forTimeInterval: 0.01)
            }
            switch point {
            case .midBody: Thread.sleep(forTimeInterval: Double(random.below(300)) / 1000)
            case .afterBody: Thread.sleep(forTimeInterval: Double(random.below(600)) / 1000)
            case .afterCommit:
                if onError == "stop" {
                    #expect(client.receive(until: "\"unknownKeys\":{}}").hasPrefix("HTTP/1.1 200 OK\r\n"))
                } else {
                    try Self.waitForCount(atLeast: before[0] + Self.batchSize, in: path)
                }
            }
            kill(server.process.processIdentifier, SIGKILL)
            server.process.waitUntilExit()
            #expect(server.process.terminationReason == .uncaughtSignal)

            let check = try Fixtures.run(fixture.kura, ["check", path])
            #expect(check.status == 0, "trial \(trial) (\(onError), \(point)): \(check.stdout)")
            let after = try Self.counts(path)
            let added = after[0] - before[0]
            // Whole documents: each person came with its address and its dog.
            #expect(after[1] - before[1] == added && after[2] - before[2] == added, "trial \(trial): \(before) then \(after)")
            let committed = onError == "stop" ? [0, total] : [0, Self.batchSize, total]
            #expect(committed.contains(added), "trial \(trial) (\(onError), \(point)): \(added) documents added")
            switch point {
            case .midBody: #expect(added < total, "trial \(trial): a body cut short was imported whole")
            case .afterBody: break
            case .afterCommit: #expect(added >= min(total, Self.batchSize), "trial \(trial): a commit was lost")
            }
            print("ServiceFaultTests: SIGKILL trial \(trial), onError=\(onError), \(point), \(sent) of \(body.count) bytes sent: \(added) of \(total) documents kept")
        }
    }

    /// Waits until the realm at `path` holds `count` persons or more (a commit seen by a reader).
    private static func waitForCount(atLeast count: Int, in path: String) throws {
        let deadline = Date().addingTimeInterval(30)
        while try Realm(path: path).count("Person") < count {
            guard Date() < deadline else { throw RawClient.Failure() }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }
}
