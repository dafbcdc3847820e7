import Foundation
import Kura
import KuraTestSupport
import Testing

/// Clients that try to stop or stall the server: leaving streams at any moment, never reading,
/// reading slowly, sending a body that never comes. The server outlives them all, frees what they
/// held after its timeouts, and keeps serving everyone else.
@Suite struct ServiceHostileClientTests {
    /// Short timeouts and few workers, so that the tests see each limit within seconds.
    static let config = """
        server:
          sendIdleTimeout: 1
          bodyIdleTimeout: 1
          workers: 4
          workerWait: 0.5

        """

    /// A name of 64 KiB: 256 people make a 16 MiB export, more than a loopback connection buffers.
    static let longName = String(repeating: "abcdefghijklmnop", count: 4096)

    /// The fixture's folder with `big.realm` (256 people with long names) beside `zoo.realm`, and
    /// the short timeouts in config.yaml.
    private static func bigFixture() throws -> ServiceFixture {
        let fixture = try ServiceFixture()
        try fixture.writeConfig(config)
        let schema = Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml").path
        let people = (1...256).map { #"{"id": \#($0), "name": "\#($0) \#(longName)", "dogs": [{"name": "D\#($0)", "age": 2}]}"# }
        try (people.joined(separator: "\n") + "\n").write(toFile: fixture.path("big.jsonl"), atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(fixture.kura, ["init", fixture.path("big.realm"), "--schema", schema]).status == 0)
        #expect(try Fixtures.run(fixture.kura, ["import", fixture.path("big.realm"), fixture.path("big.jsonl"), "--type", "Person"]).status == 0)
        return fixture
    }

    private static func head(_ method: String, _ path: String, _ extra: String = "") -> [UInt8] {
        Array("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)\r\n".utf8)
    }

    /// The server still runs, frees every worker within a few seconds, and answers a health probe,
    /// a listing and a whole export.
    private static func expectServing(_ server: ServerProcess, _ fixture: ServiceFixture, _ what: String) throws {
        #expect(server.process.isRunning, "the server died after \(what): \(server.log.suffix(2000))")
        guard server.process.isRunning else { return }
        let deadline = Date().addingTimeInterval(10)
        while try server.request("/healthz").status != 200 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(try server.request("/healthz").status == 200, "after \(what)")
        #expect(try server.request("/v1/realms").status == 200, "after \(what)")
        let export = try server.request("/v1/realms/zoo/export?format=jsonl")
        let expected = try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm"), "--format", "jsonl"])
        #expect(export.text == expected.stdout, "after \(what)")
    }

    @Test func clientsLeavingStreamsAtAnyMomentNeverStopTheServer() throws {
        let fixture = try Self.bigFixture()
        let server = try fixture.serve(["big.realm", "zoo.realm"])
        // Exports left after reading nothing, a little, a buffer's worth, and after the server's
        // buffers filled and its writer waited (the moment that once crashed the server).
        for (bytes, pause) in [(0, 0.0), (100, 0.0), (100, 0.2), (65536, 0.05), (100, 0.7), (100, 2.5)] {
            let client = try RawClient(port: server.port, receiveBuffer: 4096)
            try client.send(Self.head("GET", "/v1/realms/big/export"))
            _ = client.receive(atMost: bytes)
            Thread.sleep(forTimeInterval: pause)
        }
        try Self.expectServing(server, fixture, "exports left early")
        // An export read slowly, then left.
        let slow = try RawClient(port: server.port, receiveBuffer: 4096)
        try slow.send(Self.head("GET", "/v1/realms/big/export?format=yaml"))
        for _ in 0..<40 {
            _ = slow.receive(atMost: 4096)
            Thread.sleep(forTimeInterval: 0.02)
        }
        // Pages and single objects left before their answer is read.
        for path in ["/v1/realms/big/objects/Person?limit=1000", "/v1/realms/big/objects/Person/7", "/v1/realms/big/check"] {
            let client = try RawClient(port: server.port, receiveBuffer: 4096)
            try client.send(Self.head("GET", path))
        }
        // Change streams left at once, and after their first comment.
        for readsFirstComment in [false, true] {
            let client = try RawClient(port: server.port)
            try client.send(Self.head("GET", "/v1/realms/zoo/changes"))
            if readsFirstComment { _ = client.receive(until: "after version") }
        }
        // Imports left halfway through their bodies, atomic and in batches.
        let documents = (100..<2100).map { #"{"id": \#($0), "name": "P\#($0)"}"# + "\n" }.joined()
        for onError in ["stop", "skip"] {
            let client = try RawClient(port: server.port)
            try client.send(Self.head(
                "POST", "/v1/realms/zoo/import?type=Person&onError=\(onError)",
                "Content-Type: application/x-ndjson\r\nContent-Length: \(documents.utf8.count * 2)\r\n"))
            try client.send(Array(documents.utf8))
            Thread.sleep(forTimeInterval: 0.3)
        }
        try Self.expectServing(server, fixture, "every kind of stream left early")
        let log = server.log
        #expect(!log.contains(" error "), "\(log.suffix(3000))")
        #expect(log.contains("POST /v1/realms/zoo/import 499"), "an import whose client left counts as 499, not 500")
        #expect(try Realm(path: fixture.path("zoo.realm")).count("Person") == 3, "an import whose client left wrote nothing")
        #expect(server.stop() == 0)
    }

    @Test func responsesNobodyReadsAreClosedAndTheirWorkersFreed() throws {
        let fixture = try Self.bigFixture()
        let server = try fixture.serve(["big.realm", "zoo.realm"])
        // Six exports nobody reads, for four workers.
        let stalled = try (0..<6).map { _ in
            let client = try RawClient(port: server.port, receiveBuffer: 4096)
            try client.send(Self.head("GET", "/v1/realms/big/export"))
            return client
        }
        Thread.sleep(forTimeInterval: 0.5)
        // Meanwhile a request for a realm waits at most workerWait, then hears why.
        let started = Date()
        let busy = try server.request("/v1/realms")
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(busy.status == 503, "\(busy.text)")
        #expect(busy.headers["retry-after"] == "1")
        #expect(busy.text.contains(#""type":"/problems/server-busy""#))
        let health = try server.request("/healthz")
        #expect(health.status == 503, "\(health.text)")
        #expect(health.text.hasPrefix(#"{"status":"saturated","workers":{"running":4,"#), "\(health.text)")
        // Every stalled export is closed by the server once it went unread for sendIdleTimeout,
        // long before it was sent whole; those that found no worker were answered 503.
        Thread.sleep(forTimeInterval: 3)
        var refused = 0
        for client in stalled {
            let drained = client.drain(idleTimeout: 10)
            if drained.start.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n") {
                refused += 1
                continue
            }
            #expect(drained.start.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(drained.start)")
            #expect(drained.closed, "an unread export was still open after \(drained.bytes) bytes")
            #expect(drained.bytes < 12 * 1024 * 1024, "an unread export was sent whole")
        }
        #expect(refused == 2, "six exports for four workers")
        try Self.expectServing(server, fixture, "unread exports")
        #expect(try server.request("/healthz").text == #"{"status":"ok","workers":{"running":0,"waiting":0,"limit":4}}"# + "\n")
        #expect(server.stop() == 0)
    }

    @Test func aBodyThatStallsKeepsNoWriterWaiting() throws {
        let fixture = try ServiceFixture()
        // A longer wait than the others, so that a kura import started meanwhile has seconds to
        // finish on a busy machine before the body's timeout would have freed a writer it waited for.
        try fixture.writeConfig("server:\n  bodyIdleTimeout: 4\n")
        let server = try fixture.serve()
        // Headers and one byte, then nothing: the writer is not taken, so kura import goes ahead.
        let silent = try RawClient(port: server.port)
        try silent.send(Self.head("POST", "/v1/realms/zoo/import?type=Person", "Content-Type: application/json\r\nContent-Length: 1000\r\n"))
        try silent.send(Array("[".utf8))
        Thread.sleep(forTimeInterval: 0.2)
        let document = fixture.folder.appendingPathComponent("one.json")
        try #"[{"id": 50, "name": "Beside"}]"#.write(to: document, atomically: true, encoding: .utf8)
        let started = Date()
        let beside = try Fixtures.run(fixture.kura, ["import", fixture.path("zoo.realm"), document.path, "--type", "Person"])
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(Date().timeIntervalSince(started) < 3, "kura import waited for a silent HTTP import's writer")
        let answer = silent.receive(until: "server.bodyIdleTimeout)")
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer)")
        #expect(answer.contains(#"{"type":"/problems/body-idle","title":"Request Timeout","status":408,"detail":"the body sent nothing for 4 s (server.bodyIdleTimeout)"}"#))
        #expect(server.stop() == 0)
    }

    @Test func aBodyThatStallsIsAnswered408() throws {
        let fixture = try ServiceFixture()
        try fixture.writeConfig(Self.config)
        let server = try fixture.serve()
        // A JSON body that stops after its first byte.
        let silent = try RawClient(port: server.port)
        try silent.send(Self.head("POST", "/v1/realms/zoo/import?type=Person", "Content-Type: application/json\r\nContent-Length: 1000\r\n"))
        try silent.send(Array("[".utf8))
        let answer = silent.receive(until: "server.bodyIdleTimeout)")
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer)")
        #expect(answer.contains(#"{"type":"/problems/body-idle","title":"Request Timeout","status":408,"detail":"the body sent nothing for 1 s (server.bodyIdleTimeout)"}"#))

        // An atomic import that stalls after a full batch of documents is rolled back.
        let documents = (100..<400).map { #"{"id": \#($0), "name": "P\#($0)"}"# + "\n" }.joined()
        let stalling = try RawClient(port: server.port)
        try stalling.send(Self.head(
            "POST", "/v1/realms/zoo/import?type=Person",
            "Content-Type: application/x-ndjson\r\nContent-Length: \(documents.utf8.count + 100)\r\n"))
        try stalling.send(Array(documents.utf8))
        #expect(stalling.receive(until: "server.bodyIdleTimeout)").hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(try Realm(path: fixture.path("zoo.realm")).count("Person") == 3, "the fixture's three people, no more")

        // Small bodies too: an object, a copy, a migration.
        for (path, type) in [
            ("/v1/realms/zoo/objects/Person", "application/json"), ("/v1/copy", "application/json"),
            ("/v1/realms/zoo/migrate", "application/yaml"),
        ] {
            let client = try RawClient(port: server.port)
            try client.send(Self.head("POST", path, "Content-Type: \(type)\r\nContent-Length: 100\r\n") + Array("{".utf8))
            let reply = client.receive(until: "server.bodyIdleTimeout)")
            #expect(reply.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(path): \(reply)")
        }
        try Self.expectServing(server, fixture, "stalled bodies")
        #expect(server.stop() == 0)
    }

    @Test func theServerStopsInItsGraceWhateverItsClientsDo() throws {
        let fixture = try Self.bigFixture()
        try fixture.writeConfig(Self.config + "  shutdownGrace: 1\n")
        let server = try fixture.serve(["big.realm", "zoo.realm"])
        var clients: [RawClient] = []
        for _ in 0..<3 {
            let unread = try RawClient(port: server.port, receiveBuffer: 4096)
            try unread.send(Self.head("GET", "/v1/realms/big/export"))
            clients.append(unread)
        }
        let silent = try RawClient(port: server.port)
        try silent.send(Self.head("POST", "/v1/realms/zoo/import?type=Person", "Content-Type: application/json\r\nContent-Length: 1000\r\n"))
        clients.append(silent)
        let changes = try RawClient(port: server.port, receiveBuffer: 4096)
        try changes.send(Self.head("GET", "/v1/realms/zoo/changes"))
        clients.append(changes)
        Thread.sleep(forTimeInterval: 0.5)
        let took = server.stopTimed()
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
        #expect(took < 4, "the server took \(took) s to stop with shutdownGrace 1")
        #expect(try Realm(path: fixture.path("zoo.realm")).count("Person") == 3)
    }
}
