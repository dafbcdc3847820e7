import Foundation
import Kura
import KuraTestSupport
import Testing

/// SIGTERM: the server stops accepting, lets a running import finish within shutdownGrace, exits 0.
@Suite struct ServiceShutdownTests {
    @Test func anImportRunningAtSIGTERMFinishesAndTheServerExits0() throws {
        let fixture = try ServiceFixture()
        try fixture.writeConfig("server:\n  shutdownGrace: 10\n")
        let server = try fixture.serve()
        let body = Array((100..<2100).map { #"{"id": \#($0), "name": "P\#($0)"}"# + "\n" }.joined().utf8)
        let half = body.count / 2
        let client = try RawClient(port: server.port)
        try client.send(Array((
            "POST /v1/realms/zoo/import?type=Person HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Content-Type: application/x-ndjson\r\nContent-Length: \(body.count)\r\n\r\n").utf8) + body[..<half])
        Thread.sleep(forTimeInterval: 0.3)
        server.process.terminate()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(server.process.isRunning)
        try client.send(Array(body[half...]))
        let response = client.receive(until: "\"unknownKeys\":{}}")
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.contains(#"{"documents":2000,"types":{"Person":{"inserted":2000,"#))
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
        #expect(try Realm(path: fixture.path("zoo.realm")).count("Person") == 2003)
        let check = try Fixtures.run(fixture.kura, ["check", fixture.path("zoo.realm")])
        #expect(check.status == 0, "\(check.stdout)")
        // New connections are refused once it has stopped.
        #expect(throws: (any Error).self) { try RawClient(port: server.port) }
    }
}
