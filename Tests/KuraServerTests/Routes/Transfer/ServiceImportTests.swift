import Foundation
import Kura
import KuraTestSupport
import Testing

/// `POST …/import`: the samples, atomic failures, rejects, limits and content types, answered by the
/// router in process; a client that drops mid-body over real HTTP.
@Suite struct ServiceImportTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    private func sample(_ name: String) throws -> Data {
        try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Samples/\(name)"))
    }

    private func emptyRealm(_ name: String) throws {
        let schema = Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml").path
        #expect(try Fixtures.run(fixture.kura, ["init", fixture.path(name), "--schema", schema]).status == 0)
    }

    private func export(_ realm: String, _ format: String = "json") throws -> String {
        try Fixtures.run(fixture.kura, ["export", fixture.path(realm), "--format", format]).stdout
    }

    @Test func theSamplesImportAsKuraImportDoesIt() async throws {
        try emptyRealm("web.realm")
        try emptyRealm("cli.realm")
        let server = try await fixture.serveInProcess(["web.realm"])
        let samples: [(String, String, String?)] = [
            ("people.json", "application/json", "Person"), ("people.jsonl", "application/x-ndjson", "Person"),
            ("dogs.yaml", "application/yaml", nil), ("friends.json", "application/json; charset=utf-8", nil),
        ]
        for (file, contentType, type) in samples {
            let query = type.map { "?type=\($0)" } ?? ""
            let reply = try await server.request(
                "/v1/realms/web/import\(query)", method: "POST", headers: ["Content-Type": contentType], body: try sample(file))
            #expect(reply.status == 200, "\(file): \(reply.text)")
            let path = Fixtures.packageRoot.appendingPathComponent("Samples/\(file)").path
            #expect(try Fixtures.run(fixture.kura, ["import", fixture.path("cli.realm"), path] + (type.map { ["--type", $0] } ?? [])).status == 0)
        }
        let first = try await server.request(
            "/v1/realms/web/import?type=Person&mode=update", method: "POST", headers: ["Content-Type": "application/x-ndjson"],
            body: Data(#"{"id": 30, "name": "Ingrid Berg"}"#.utf8))
        #expect(first.text == #"{"documents":1,"types":{"Person":{"inserted":0,"updated":1,"unchanged":0,"deleted":0}},"rejected":[],"rejectedCount":0,"rejectedTypes":{},"unknownKeys":{}}"# + "\n")
        _ = try Fixtures.run(fixture.kura, ["import", fixture.path("cli.realm"), "--type", "Person", "--mode", "update", try writeTemp(#"{"id": 30, "name": "Ingrid Berg"}"#, "one.jsonl")])
        // Chen of people.json takes createdAt's default, now, which differs between the two imports.
        let withoutDates = { (text: String) in
            text.replacingOccurrences(of: #""createdAt":\{"\$date":"[^"]*"\}"#, with: "", options: .regularExpression)
        }
        #expect(withoutDates(try export("web.realm")) == withoutDates(try export("cli.realm")))
        #expect(try export("web.realm").count == export("cli.realm").count)
        #expect(try Fixtures.run(fixture.kura, ["check", fixture.path("web.realm")]).status == 0)
    }

    private func writeTemp(_ text: String, _ name: String) throws -> String {
        try text.write(toFile: fixture.path(name), atomically: true, encoding: .utf8)
        return fixture.path(name)
    }

    @Test func anInvalidDocumentIs422WithItsErrorsAndWritesNothing() async throws {
        let server = try await fixture.serveInProcess()
        let before = try export("zoo.realm")
        let reply = try await server.request(
            "/v1/realms/zoo/import?type=Person", method: "POST", headers: ["Content-Type": "application/json"],
            body: try sample("bad-people.json"))
        #expect(reply.status == 422)
        #expect(reply.headers["content-type"] == "application/problem+json")
        #expect(reply.text == #"{"type":"/problems/invalid-document","title":"Unprocessable Content","status":422,"detail":"the document has 1 error","errors":[{"line":2,"column":63,"path":"$[0].dogs[0].age","message":"body:2:63: error: $[0].dogs[0].age: expected int, found string \"three\""}]}"# + "\n")
        let syntax = try await server.request(
            "/v1/realms/zoo/import?type=Person", method: "POST", headers: ["Content-Type": "application/json"],
            body: Data("[{\"id\": 50, \"name\": \"Ola\"},\n {\"id\": 51 \"name\": \"Kai\"}]".utf8))
        #expect(syntax.status == 422)
        #expect(syntax.text.contains(#""errors":[{"line":2,"column":12,"path":"","message":"body:2:12: error: "#))
        #expect(try export("zoo.realm") == before)
    }

    @Test func skipListsEachRejectedDocumentAndImportsTheRest() async throws {
        let server = try await fixture.serveInProcess()
        let reply = try await server.request(
            "/v1/realms/zoo/import?type=Person&onError=skip", method: "POST", headers: ["Content-Type": "application/json"],
            body: try sample("bad-people.json"))
        #expect(reply.status == 200)
        let object = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        #expect(object["rejectedCount"] as? Int == 5)
        #expect(object["rejectedTypes"] as? [String: Int] == ["Person": 5])
        let rejected = try #require(object["rejected"] as? [[String: Any]])
        #expect(rejected.count == 5)
        #expect(rejected.first?["document"] as? [String: Int] == ["line": 2, "column": 3])
        #expect(rejected.first?["errors"] as? [String] == [#"body:2:63: error: $[0].dogs[0].age: expected int, found string "three""#])
        #expect(try Realm(path: fixture.path("zoo.realm")).count("Person") == 4)
    }

    @Test func contentTypeLimitsAndParametersAreChecked() async throws {
        try fixture.writeConfig("server:\n  maxBodyBytes: 200\n")
        let server = try await fixture.serveInProcess()
        let before = try export("zoo.realm")
        let unknown = try await server.request(
            "/v1/realms/zoo/import", method: "POST", headers: ["Content-Type": "text/csv"], body: Data("a,b".utf8))
        #expect(unknown.status == 415)
        #expect(unknown.text == #"{"type":"/problems/unsupported-media-type","title":"Unsupported Media Type","status":415,"detail":"Content-Type 'text/csv': send application/json, application/x-ndjson or application/yaml"}"# + "\n")
        let big = Data(String(repeating: #"{"id": 70, "name": "Big"}"# + "\n", count: 20).utf8)
        let tooLarge = #"{"type":"/problems/body-too-large","title":"Content Too Large","status":413,"detail":"an import body may hold at most 200 bytes (server.maxBodyBytes)"}"# + "\n"
        let declared = try await server.request(
            "/v1/realms/zoo/import?type=Person", method: "POST", headers: ["Content-Type": "application/x-ndjson"], body: big)
        #expect(declared.status == 413)
        #expect(declared.text == tooLarge)
        let chunked = try await server.request(
            "/v1/realms/zoo/import?type=Person&mode=update", method: "POST",
            headers: ["Content-Type": "application/x-ndjson", "Transfer-Encoding": "chunked"], body: big)
        #expect(chunked.status == 413)
        #expect(chunked.text == tooLarge)
        let mode = try await server.request(
            "/v1/realms/zoo/import?mode=upsert", method: "POST", headers: ["Content-Type": "application/json"], body: Data("[]".utf8))
        #expect(mode.status == 400)
        #expect(mode.text.contains(#""detail":"mode 'upsert' is not one of insert, update, modified, replace"}"#))
        let batch = try await server.request(
            "/v1/realms/zoo/import?onError=skip&batchSize=0", method: "POST", headers: ["Content-Type": "application/json"], body: Data("[]".utf8))
        #expect(batch.status == 400)
        #expect(batch.text.contains(#""detail":"batchSize '0' is not a whole number from 1"}"#))
        let type = try await server.request(
            "/v1/realms/zoo/import?type=Cat", method: "POST", headers: ["Content-Type": "application/json"], body: Data("[]".utf8))
        #expect(type.status == 404)
        #expect(try export("zoo.realm") == before)
    }

    @Test func theReadingOptionsOfKuraImportAreQueryParameters() async throws {
        let server = try await fixture.serveInProcess()
        func importing(_ query: String, _ body: String) async throws -> (status: Int, text: String) {
            let reply = try await server.request(
                "/v1/realms/zoo/import?type=Person&\(query)", method: "POST", headers: ["Content-Type": "application/x-ndjson"],
                body: Data(body.utf8))
            return (reply.status, reply.text)
        }
        let dated = #"{"id": 80, "name": "Ida", "createdAt": "2024-05-06T07:08:09Z", "hat": "red"}"#
        let strict = try await importing("", dated)
        #expect(strict.status == 422)
        #expect(strict.text.contains(#""message":"body:1:40: error: $[0].createdAt: expected date, found string \"2024-05-06T07:08:09Z\"""#), "\(strict.text)")
        let unknownRefused = try await importing("dateStrategy=iso8601&rejectUnknownKeys=true", dated)
        #expect(unknownRefused.status == 422)
        #expect(unknownRefused.text.contains(#""message":"body:1:64: error: $[0]: unknown property 'hat' for Person""#), "\(unknownRefused.text)")
        let taken = try await importing("dateStrategy=iso8601", dated)
        #expect(taken.status == 200, "\(taken.text)")
        #expect(taken.text.contains(#""unknownKeys":{"Person":1}"#))
        let stored = try await server.request("/v1/realms/zoo/objects/Person/80")
        #expect(stored.text.contains(#""createdAt":{"$date":"2024-05-06T07:08:09.000Z"}"#), "\(stored.text)")
        // Again with skipExisting: left out, counted as unchanged; with another mode it is refused.
        let again = try await importing("dateStrategy=iso8601&skipExisting=true", dated)
        #expect(again.text.contains(#""Person":{"inserted":0,"updated":0,"unchanged":1,"deleted":0}"#), "\(again.text)")
        let skipUpdate = try await importing("skipExisting=true&mode=update", dated)
        #expect(skipUpdate.status == 400)
        #expect(skipUpdate.text.contains(#""detail":"skipExisting goes with mode insert"}"#))
        let badStrategy = try await importing("dateStrategy=guess", dated)
        #expect(badStrategy.status == 400)
        #expect(badStrategy.text.contains(
            #""detail":"dateStrategy 'guess' is not one of strict, iso8601, secondsSince1970 or millisecondsSince1970"}"#))
        let binary = try await importing("dataStrategy=hex", dated)
        #expect(binary.text.contains(#""detail":"dataStrategy 'hex' is not strict or base64"}"#))
    }

    @Test func aWholeRealmExportImportsOverHTTPIntoAnEmptyRealmAndExportsTheSameBytes() async throws {
        let formats = ["json": "application/json", "jsonl": "application/x-ndjson", "yaml": "application/yaml"]
        for format in formats.keys { try emptyRealm("copy-\(format).realm") }
        let server = try await fixture.serveInProcess(["zoo.realm"] + formats.keys.sorted().map { "copy-\($0).realm" })
        for (format, contentType) in formats {
            let exported = try await server.request("/v1/realms/zoo/export?format=\(format)")
            let imported = try await server.request(
                "/v1/realms/copy-\(format)/import", method: "POST", headers: ["Content-Type": contentType], body: exported.body)
            #expect(imported.status == 200, "\(format): \(imported.text)")
            #expect(try await server.request("/v1/realms/copy-\(format)/export?format=\(format)").body == exported.body, "\(format)")
        }
    }

    @Test func aClientThatDropsMidBodyLeavesTheRealmAsItWas() throws {
        let server = try fixture.serve()
        let before = try export("zoo.realm")
        // Whole lines only, so the part sent is valid on its own: only the missing rest tells it apart.
        let part = Data((100..<2100).map { #"{"id": \#($0), "name": "P\#($0)"}"# + "\n" }.joined().utf8)
        let head = "POST /v1/realms/zoo/import?type=Person HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/x-ndjson\r\nContent-Length: \(part.count * 2)\r\n\r\n"
        try DroppingClient.send(port: server.port, head: head, partialBody: part)
        #expect(try server.request("/healthz").status == 200)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try export("zoo.realm") == before)
        let check = try Fixtures.run(fixture.kura, ["check", fixture.path("zoo.realm")])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(server.stop() == 0)
        #expect(server.log.contains("POST /v1/realms/zoo/import "))
    }
}
