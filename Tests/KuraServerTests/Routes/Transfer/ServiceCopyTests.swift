import Foundation
import Kura
import KuraTestSupport
import Testing

/// `POST /v1/copy`, answered by the router in process: what `kura copy` does between served realms, with its summary as JSON.
@Suite struct ServiceCopyTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    private func token(_ arguments: [String]) throws -> (token: String, entry: String) {
        let lines = try Fixtures.run(fixture.kura, ["token", "new"] + arguments).stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        return (lines[0], lines[1])
    }

    @Test func aWhereOfEightyThousandComparisonsCopiesItsObjects() async throws {
        let schema = Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml").path
        #expect(try Fixtures.run(fixture.kura, ["init", fixture.path("web.realm"), "--schema", schema]).status == 0)
        let server = try await fixture.serveInProcess(["zoo.realm", "web.realm"])
        // A chain far longer than one command-line argument holds, in as much of a body as a copy takes (1 MiB).
        let chain = (0..<80_000).map { "id==\($0 + 10)" }.joined(separator: "||") + "||id==1"
        let body = try JSONSerialization.data(withJSONObject: ["source": "zoo", "destination": "web", "type": "Person", "where": chain])
        let copied = try await server.request("/v1/copy", method: "POST", headers: ["Content-Type": "application/json"], body: body)
        #expect(copied.status == 200, "\(copied.text)")
        // Alice, and Bob as her best friend.
        #expect(copied.text.contains(#""Person":{"inserted":2,"updated":0,"unchanged":0,"deleted":0}"#))
    }

    @Test func aWhereTakesItsArgumentsFromArgs() async throws {
        let schema = Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml").path
        #expect(try Fixtures.run(fixture.kura, ["init", fixture.path("web.realm"), "--schema", schema]).status == 0)
        let server = try await fixture.serveInProcess(["zoo.realm", "web.realm"])
        let body = try JSONSerialization.data(withJSONObject: [
            "source": "zoo", "destination": "web", "type": "Person", "where": "name == $0", "args": ["Chen"],
        ] as [String: Any])
        let copied = try await server.request("/v1/copy", method: "POST", headers: ["Content-Type": "application/json"], body: body)
        #expect(copied.text.contains(#""Person":{"inserted":1,"updated":0,"unchanged":0,"deleted":0}"#), "\(copied.text)")
        let bad = try JSONSerialization.data(withJSONObject: ["source": "zoo", "destination": "web", "type": "Person", "where": "name == $0", "args": "Chen"])
        let refused = try await server.request("/v1/copy", method: "POST", headers: ["Content-Type": "application/json"], body: bad)
        #expect(refused.status == 400)
        #expect(refused.text.contains(#""detail":"\"args\" must be an array of the predicate's values""#), "\(refused.text)")
    }

    @Test func copyMatchesKuraCopyAndNeedsReadOnTheSourceAndWriteOnTheDestination() async throws {
        let schema = Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml").path
        for name in ["web.realm", "cli.realm"] {
            #expect(try Fixtures.run(fixture.kura, ["init", fixture.path(name), "--schema", schema]).status == 0)
        }
        let reader = try token(["reader", "--scope", "read"])
        let writer = try token(["writer", "--scope", "write", "--realm", "web"])
        try fixture.writeConfig("server:\n  tokens:\n    \(reader.entry)\n    \(writer.entry)\n")
        let server = try await fixture.serveInProcess(["zoo.realm", "web.realm"])
        let body = Data(#"{"source": "zoo", "destination": "web", "type": "Person", "where": "id == 1"}"#.utf8)
        let post = { (token: String, body: Data) in
            try await server.request(
                "/v1/copy", method: "POST", headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"], body: body)
        }
        // The writer may write web but not read zoo; the reader may read both but write neither.
        let noRead = try await post(writer.token, body)
        #expect(noRead.status == 403)
        #expect(noRead.text == #"{"type":"/problems/forbidden","title":"Forbidden","status":403,"detail":"token 'writer' may not use realm 'zoo'"}"# + "\n")
        #expect(try await post(reader.token, body).status == 403)
        #expect(try await server.request("/v1/copy", method: "POST", headers: ["Content-Type": "application/json"], body: body).status == 401)

        try FileManager.default.removeItem(at: fixture.folder.appendingPathComponent("config.yaml"))
        let open = try await fixture.serveInProcess(["zoo.realm", "web.realm"])
        let copied = try await open.request("/v1/copy", method: "POST", headers: ["Content-Type": "application/json"], body: body)
        #expect(copied.status == 200)
        #expect(copied.text == #"{"types":{"Address":{"inserted":1,"updated":0,"unchanged":0,"deleted":0},"Dog":{"inserted":2,"updated":0,"unchanged":0,"deleted":0},"DogToy":{"inserted":1,"updated":0,"unchanged":0,"deleted":0},"Person":{"inserted":2,"updated":0,"unchanged":0,"deleted":0}}}"# + "\n")
        let command = try Fixtures.run(
            fixture.kura, ["copy", fixture.path("zoo.realm"), fixture.path("cli.realm"), "--type", "Person", "--where", "id == 1"])
        #expect(command.stdout == "Address: 1 inserted, 0 updated, 0 unchanged\nDog: 2 inserted, 0 updated, 0 unchanged\nDogToy: 1 inserted, 0 updated, 0 unchanged\nPerson: 2 inserted, 0 updated, 0 unchanged\n")
        let exports = try ["web.realm", "cli.realm"].map { try Fixtures.run(fixture.kura, ["export", fixture.path($0)]).stdout }
        #expect(exports[0] == exports[1])

        let again = try await open.request("/v1/copy", method: "POST", headers: ["Content-Type": "application/json"], body: body)
        #expect(again.status == 409)
        let updated = try await open.request(
            "/v1/copy", method: "POST", headers: ["Content-Type": "application/json"], body: Data(#"{"source": "zoo", "destination": "web", "type": "Person", "where": "id == 1", "mode": "modified"}"#.utf8))
        #expect(updated.status == 200)
        let missing = try await open.request("/v1/copy", method: "POST", headers: ["Content-Type": "application/json"], body: Data(#"{"source": "zoo"}"#.utf8))
        #expect(missing.text == #"{"type":"/problems/bad-parameter","title":"Bad Request","status":400,"detail":"the body needs \"destination\": a realm name"}"# + "\n")
        let unknown = try await open.request("/v1/copy", method: "POST", headers: ["Content-Type": "application/json"], body: Data(#"{"source": "zoo", "destination": "nope"}"#.utf8))
        #expect(unknown.status == 404)
    }
}
