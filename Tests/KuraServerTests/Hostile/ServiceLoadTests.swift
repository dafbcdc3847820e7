import Foundation
import Kura
import KuraTestSupport
import Testing

/// Sixteen clients at once for a bounded time, mixing keyed GETs, paged queries, exports and
/// imports into two realms: no 5xx but 503 with `Retry-After`, and every acknowledged write is there.
@Suite struct ServiceLoadTests {
    static let clients = 16
    static let duration: TimeInterval = 30
    static let realms = ["zoo", "farm"]
    /// Documents per import; a writer holds its realm long enough for others to wait behind it.
    static let batch = 300

    /// What the clients saw, gathered under a lock.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var failures: [String] = []
        private(set) var acknowledged: [(realm: String, first: Int)] = []
        private(set) var refused: [(realm: String, first: Int)] = []
        private(set) var requests = 0

        func fail(_ text: String) { lock.withLock { failures.append(text) } }
        func count() { lock.withLock { requests += 1 } }
        func imported(_ realm: String, _ first: Int, acknowledged wasAcknowledged: Bool) {
            lock.withLock {
                if wasAcknowledged { acknowledged.append((realm, first)) } else { refused.append((realm, first)) }
            }
        }
    }

    /// The body of an import of `batch` people with keys from `first`.
    static func importBody(first: Int) -> Data {
        Data((first..<first + batch).map { #"{"id": \#($0), "name": "L\#($0)", "address": {"city": "Oslo"}}"# + "\n" }.joined().utf8)
    }

    /// One client's requests until `deadline`, in a rotation that starts at the client's number.
    static func runClient(_ client: Int, port: Int, folder: URL, deadline: Date, tally: Tally) {
        let server = Endpoint(port: port, folder: folder)
        var step = client
        var imports = 0
        while Date() < deadline {
            let realm = realms[(step / 4) % realms.count]
            do {
                switch step % 4 {
                case 0:
                    let reply = try server.request("/v1/realms/\(realm)/objects/Person/\(1 + step % 3)")
                    if reply.status != 200 { tally.fail("GET by key in \(realm): \(reply.status) \(reply.text)") }
                case 1:
                    let reply = try server.request("/v1/realms/\(realm)/objects/Person?limit=50&where=id%20%3E%20\(step % 1000)")
                    if reply.status != 200 || !reply.text.hasPrefix(#"{"objects":["#) {
                        tally.fail("page of \(realm): \(reply.status) \(reply.text.prefix(200))")
                    }
                case 2:
                    let reply = try server.request("/v1/realms/\(realm)/export?type=Person&format=jsonl&limit=1000")
                    // The export is whole: every line a document, the last one ended.
                    if reply.status != 200 || !reply.text.hasSuffix("}\n") {
                        tally.fail("export of \(realm): \(reply.status) \(reply.text.suffix(200))")
                    }
                default:
                    let first = 1_000_000 * (client + 1) + 1000 * imports
                    imports += 1
                    let path = "/v1/realms/\(realm)/import?type=Person&onError=stop"
                    // The first clients send half their body, then pause past writeWait: the
                    // writers queued behind them meanwhile see no progress and are answered 503.
                    let reply = client < realms.count
                        ? try slowImport(port: server.port, path: path, body: importBody(first: first))
                        : try server.request(path, method: "POST", headers: ["Content-Type": "application/x-ndjson"], body: importBody(first: first))
                    switch reply.status {
                    case 200:
                        let expected = #"{"documents":\#(batch),"types":{"Address":{"inserted":\#(batch),"#
                        if reply.text.hasPrefix(expected) {
                            tally.imported(realm, first, acknowledged: true)
                        } else {
                            tally.fail("import into \(realm): 200 \(reply.text.prefix(200))")
                        }
                    case 503 where reply.headers["retry-after"] != nil:
                        tally.imported(realm, first, acknowledged: false)
                    default:
                        tally.fail("import into \(realm): \(reply.status) \(reply.headers) \(reply.text.prefix(200))")
                    }
                }
                tally.count()
            } catch {
                tally.fail("client \(client): \(error)")
            }
            step += 1
        }
    }

    /// Seconds a slow client pauses halfway through its body; more than the server's writeWait.
    static let slowPause = 0.6

    /// An import whose body stops halfway for `slowPause` seconds, read back as curl would.
    static func slowImport(port: Int, path: String, body: Data) throws -> HTTPReply {
        let client = try RawClient(port: port)
        let bytes = Array(body)
        try client.send(Array((
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Content-Type: application/x-ndjson\r\nContent-Length: \(bytes.count)\r\n\r\n").utf8) + bytes[..<(bytes.count / 2)])
        Thread.sleep(forTimeInterval: slowPause)
        try client.send(Array(bytes[(bytes.count / 2)...]))
        let text = client.receive(until: "\u{0}")
        guard let split = text.range(of: "\r\n\r\n") else { throw RawClient.Failure() }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { throw RawClient.Failure() }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPReply(status: status, headers: headers, body: Data(text[split.upperBound...].utf8))
    }

    /// The server as a client thread sees it: its port, and a folder for curl's files.
    struct Endpoint: Sendable {
        let port: Int
        let folder: URL

        func request(_ path: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) throws -> HTTPReply {
            try HTTPReply.fetch(method, "http://127.0.0.1:\(port)\(path)", headers: headers, body: body, in: folder)
        }
    }

    @Test func sixteenClientsMixingReadsExportsAndImportsGetNo5xxBut503AndLoseNoWrite() throws {
        let fixture = try ServiceFixture()
        try fixture.makeRealm("farm.realm")
        try fixture.writeConfig("server:\n  writeWait: 0.2\n")
        let server = try fixture.serve(["zoo.realm", "farm.realm"])
        let tally = Tally()
        let deadline = Date().addingTimeInterval(Self.duration)
        let port = server.port
        let folder = fixture.folder
        let finished = DispatchGroup()
        for client in 0..<Self.clients {
            finished.enter()
            Thread {
                Self.runClient(client, port: port, folder: folder, deadline: deadline, tally: tally)
                finished.leave()
            }.start()
        }
        finished.wait()
        #expect(tally.failures.count == 0, "\(tally.failures.count) failed requests, first: \(tally.failures.prefix(5))")
        #expect(tally.requests > Self.clients * 4, "only \(tally.requests) requests were answered")
        #expect(tally.refused.count > 0, "no import was answered 503: the slow clients never held a writer past writeWait")
        #expect(server.stop() == 0)

        for name in Self.realms {
            let path = fixture.path("\(name).realm")
            let realm = try Realm(path: path)
            let acknowledged = tally.acknowledged.filter { $0.realm == name }
            #expect(!acknowledged.isEmpty, "no import into \(name) was acknowledged")
            for (_, first) in acknowledged {
                let found = try realm.count("Person", where: "id >= \(first) AND id < \(first + Self.batch)")
                #expect(found == Self.batch, "\(name): an acknowledged import from \(first) left \(found) of \(Self.batch)")
            }
            // A refused import (503) wrote nothing.
            for (_, first) in tally.refused.filter({ $0.realm == name }) {
                #expect(try realm.count("Person", where: "id >= \(first) AND id < \(first + Self.batch)") == 0)
            }
            #expect(try realm.count("Person") == 3 + acknowledged.count * Self.batch)
            let check = try Fixtures.run(fixture.kura, ["check", path])
            #expect(check.status == 0, "\(check.stdout)")
        }
        print("ServiceLoadTests: \(tally.requests) requests, \(tally.acknowledged.count) imports acknowledged, \(tally.refused.count) answered 503")
    }
}
