import Foundation
import Kura
import KuraTestSupport
import Testing

/// `GET …/export`: the bytes `kura export` writes with the same options, in each format. The chunked
/// transfer over real HTTP; the rest answered by the router in process.
@Suite struct ServiceExportTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    /// Query strings and the `kura export` flags that ask for the same documents.
    static let selections: [(query: String, flags: [String])] = [
        ("", []),
        ("type=Person", ["--type", "Person"]),
        ("type=Person&where=name%20BEGINSWITH%20'B'%20OR%20id%20%3E%202&sort=name%20desc&limit=2",
         ["--type", "Person", "--where", "name BEGINSWITH 'B' OR id > 2", "--sort", "name desc", "--limit", "2"]),
        ("type=Dog&pretty=true", ["--type", "Dog", "--pretty"]),
    ]

    @Test(arguments: ["json", "jsonl", "yaml"])
    func exportIsByteIdenticalToKuraExport(format: String) throws {
        let server = try fixture.serve()
        for selection in Self.selections {
            let separator = selection.query.isEmpty ? "" : "&"
            let reply = try server.request("/v1/realms/zoo/export?\(selection.query)\(separator)format=\(format)")
            let expected = try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm"), "--format", format] + selection.flags)
            #expect(reply.status == 200)
            #expect(expected.status == 0)
            #expect(reply.text == expected.stdout, "\(selection.query)")
            #expect(reply.headers["transfer-encoding"] == "chunked")
        }
    }

    @Test func formatComesFromAcceptWhenTheQueryHasNone() async throws {
        let server = try await fixture.serveInProcess()
        let cases = [("application/x-ndjson", "jsonl"), ("application/yaml", "yaml"), ("text/html, application/json;q=0.9", "json")]
        for (accept, format) in cases {
            let reply = try await server.request("/v1/realms/zoo/export?type=Person", headers: ["Accept": accept])
            let expected = try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm"), "--type", "Person", "--format", format])
            #expect(reply.text == expected.stdout, "\(accept)")
        }
        #expect(try await server.request("/v1/realms/zoo/export?type=Person", headers: ["Accept": "application/yaml"]).headers["content-type"] == "application/yaml")
        #expect(try await server.request("/v1/realms/zoo/export").headers["content-type"] == "application/json")
    }

    @Test func aLargeExportStreamsWholeAndEqualsTheCommand() async throws {
        let realm = try Realm(path: fixture.path("zoo.realm"))
        try realm.write {
            for index in 0..<3000 {
                try realm.create("Person", value: .map(["name": .string("Person \(index) " + String(repeating: "x", count: 100))]))
            }
        }
        let server = try await fixture.serveInProcess()
        let reply = try await server.request("/v1/realms/zoo/export?format=jsonl")
        let expected = try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm"), "--format", "jsonl"])
        #expect(reply.body.count > 300_000)
        #expect(reply.text == expected.stdout)
    }
}
