import Foundation
import Kura
import KuraTestSupport
import Testing

/// `kura serve` answering the read routes: health, realms, schema, problems, request ids. Routes are
/// answered by the router in process; the server's exit, log, startup and check report (which names
/// the realm's path as given on the command line) over real HTTP.
@Suite struct ServiceReadTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    @Test func healthReadinessAndRealmsWithCounts() throws {
        let server = try fixture.serve()
        let health = try server.request("/healthz")
        #expect(health.status == 200)
        #expect(health.text == #"{"status":"ok","workers":{"running":0,"waiting":0,"limit":64}}"# + "\n")
        #expect(try server.request("/readyz").text == "{\"status\":\"ready\",\"realms\":1}\n")
        let realms = try server.request("/v1/realms")
        #expect(realms.headers["content-type"] == "application/json")
        #expect(realms.text == #"{"realms":[{"name":"zoo","schemaVersion":1,"counts":{"DogToy":1,"Dog":2,"Person":3,"DogClub":0}}]}"# + "\n")
        #expect(server.stop() == 0)
    }

    @Test func schemaAsKuraSchemaPrintsItOrAsJSON() async throws {
        let server = try await fixture.serveInProcess()
        let printed = try Fixtures.run(fixture.kura, ["schema", fixture.path("zoo.realm")])
        let yaml = try await server.request("/v1/realms/zoo/schema")
        #expect(yaml.status == 200)
        #expect(yaml.headers["content-type"] == "application/yaml")
        #expect(yaml.text == printed.stdout)
        let json = try await server.request("/v1/realms/zoo/schema", headers: ["Accept": "application/json"])
        #expect(json.headers["content-type"] == "application/json")
        #expect(json.text.hasPrefix(#"{"schemaVersion":1,"types":{"DogToy":{"properties":{"name":"string"}},"#))
        #expect(json.text.contains(#""Person":{"primaryKey":"id","properties":{"id":{"type":"int","autoIncrement":true},"#))
        let parsed = try JSONSerialization.jsonObject(with: json.body) as? [String: Any]
        #expect((parsed?["types"] as? [String: Any])?.count == 5)
    }

    @Test func unknownRealmTypeKeyAndRouteAreProblems() async throws {
        let server = try await fixture.serveInProcess()
        let cases: [(String, String)] = [
            ("/v1/realms/nope/schema",
             #"{"type":"/problems/unknown-realm","title":"Not Found","status":404,"detail":"no realm named 'nope' is served"}"#),
            ("/v1/realms/zoo/objects/Cat",
             #"{"type":"/problems/unknown-type","title":"Not Found","status":404,"detail":"realm 'zoo' has no type 'Cat'"}"#),
            ("/v1/realms/zoo/objects/Person/99",
             #"{"type":"/problems/unknown-key","title":"Not Found","status":404,"detail":"realm 'zoo' has no Person with key '99'"}"#),
            ("/v1/realms/zoo/objects/Person/abc",
             #"{"type":"/problems/unknown-key","title":"Not Found","status":404,"detail":"'abc' is not a key of type 'Person' (its keys are int)"}"#),
            ("/v1/realms/zoo/export?type=Cat",
             #"{"type":"/problems/unknown-type","title":"Not Found","status":404,"detail":"realm 'zoo' has no type 'Cat'"}"#),
            ("/v2/nothing", #"{"type":"/problems/not-found","title":"Not Found","status":404,"detail":"no such route"}"#),
        ]
        for (path, body) in cases {
            let reply = try await server.request(path)
            #expect(reply.status == 404, "\(path)")
            #expect(reply.headers["content-type"] == "application/problem+json", "\(path)")
            #expect(reply.text == body + "\n", "\(path)")
        }
    }

    @Test func badParametersAndPredicatesAre400NamingTheColumn() async throws {
        let server = try await fixture.serveInProcess()
        let cases: [(String, String)] = [
            ("/v1/realms/zoo/objects/Person?where=nme%20==%201", "where: column 1: error: Person has no property 'nme' (did you mean 'name'?)"),
            ("/v1/realms/zoo/objects/Person?where=name%20==%20'A'%20AND%20ag%20%3E%201",
             "where: column 17: error: Person has no property 'ag' (properties: address, bestFriend, createdAt, dogs, id, name)"),
            ("/v1/realms/zoo/objects/Person?limit=0", "limit '0' is not a whole number from 1 to 1000"),
            ("/v1/realms/zoo/objects/Person?limit=1001", "limit '1001' is not a whole number from 1 to 1000"),
            ("/v1/realms/zoo/objects/Person?after=x", "after 'x' is not a cursor of this page: take it from next, or start again without it"),
            ("/v1/realms/zoo/export?where=age%20%3E%201", "where, args, sort, limit and followLinks need type"),
            ("/v1/realms/zoo/export?format=csv", "format 'csv' is not one of json, jsonl, yaml"),
            ("/v1/realms/zoo/export?type=Dog&sort=nme", "sort: column 1: error: Dog has no property 'nme' (did you mean 'name'?)"),
        ]
        for (path, detail) in cases {
            let reply = try await server.request(path)
            #expect(reply.status == 400, "\(path)")
            let code = detail.hasPrefix("where:") || detail.hasPrefix("sort:") ? "bad-query" : "bad-parameter"
            #expect(reply.text == #"{"type":"/problems/\#(code)","title":"Bad Request","status":400,"detail":"\#(detail)"}"# + "\n", "\(path)")
        }
    }

    @Test func predicatesTakeTheirArgumentsAsAJSONArray() async throws {
        let server = try await fixture.serveInProcess()
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }
        let named = try await server.request("/v1/realms/zoo/objects/Person?where=\(encoded("name == $0 OR name BEGINSWITH $1"))&args=\(encoded(#"["Alice", "C"]"#))")
        #expect(named.status == 200, "\(named.text)")
        #expect(named.text.contains(#""count":2"#))
        // A value is bound, never read as predicate text.
        let spliced = try await server.request("/v1/realms/zoo/objects/Person?where=\(encoded("name == $0"))&args=\(encoded(#"["x' OR TRUEPREDICATE OR name == 'y"]"#))")
        #expect(spliced.status == 200 && spliced.text.contains(#""count":0"#), "\(spliced.text)")
        let paged = try await server.request("/v1/realms/zoo/objects/Person?where=\(encoded("id >= $0"))&args=\(encoded("[1]"))&limit=1")
        #expect(paged.text.contains(#""count":3"#) && paged.text.contains("&args=%5B1%5D&after="), "\(paged.text)")
        let export = try await server.request("/v1/realms/zoo/export?type=Person&format=jsonl&where=\(encoded("id IN $0"))&args=\(encoded("[[1, 3]]"))")
        #expect(export.text.split(separator: "\n").count == 2, "\(export.text)")
        let cases: [(String, Int, String)] = [
            ("where=\(encoded("name == $1"))&args=\(encoded(#"["Alice"]"#))", 400,
             "where: column 9: error: $1 has no argument: 1 argument given, numbered from $0"),
            ("where=\(encoded("name == $0"))&args=\(encoded("{}"))", 422,
             #"args:1:1: error: $: expected a JSON array of the predicate's values, such as [3, \"Rex\"]"#),
            ("where=\(encoded("name == $0"))&args=\(encoded(#"[1, {"a": 2}]"#))", 422,
             "args:1:5: error: $[1]: expected a value or a list of values, found object"),
            ("where=\(encoded("name == $0"))&args=\(encoded("[1"))", 422, "args:1:3: error:"),
        ]
        for (query, status, detail) in cases {
            let reply = try await server.request("/v1/realms/zoo/objects/Person?" + query)
            #expect(reply.status == status, "\(query): \(reply.text)")
            #expect(reply.text.contains(status == 400 ? #""detail":"\#(detail)""# : #""message":"\#(detail)"#), "\(query): \(reply.text)")
        }
    }

    @Test func queriesAreReadAsFormsWriteThem() async throws {
        let server = try await fixture.serveInProcess()
        // A "+" is a space, as browsers and Python's requests send it; "%20" too; "%2B" is a plus.
        let plus = try await server.request("/v1/realms/zoo/objects/Person?where=name+%3D%3D+'Alice'&sort=name+desc")
        #expect(plus.status == 200, "\(plus.text)")
        #expect(plus.text.contains(#""count":1"#) && plus.text.contains(#""name":"Alice""#))
        let percent = try await server.request("/v1/realms/zoo/objects/Person?where=name%20BEGINSWITH%20'C'")
        #expect(percent.text.contains(#""count":1"#) && percent.text.contains(#""name":"Chen""#))
        let literal = try await server.request("/v1/realms/zoo/objects/Person?where=name+%3D%3D+'A%2BB'")
        #expect(literal.status == 200 && literal.text.contains(#""count":0"#))
        // Names are decoded too, and a bare name is an empty value (a flag that is on).
        let export = try await server.request("/v1/realms/zoo/export?%74ype=Person&format=jsonl&pretty&limit=1")
        #expect(export.status == 200, "\(export.text)")
        #expect(export.text.hasPrefix(#"{"id":1,"name":"Alice""#))
    }

    @Test func everyResponseCarriesARequestIdAndOneLogLine() throws {
        let server = try fixture.serve()
        let given = try server.request("/v1/realms", headers: ["X-Request-Id": "trace-42"])
        #expect(given.headers["x-request-id"] == "trace-42")
        let missing = try server.request("/v1/realms/zoo/objects/Person/99")
        let generated = try #require(missing.headers["x-request-id"])
        #expect(generated.count == 36)
        let other = try server.request("/healthz")
        #expect(other.headers["x-request-id"] != generated)
        #expect(server.stop() == 0)
        let lines = server.log.split(separator: "\n").filter { $0.contains("[KuraServer]") }
        #expect(lines.count == 3)
        #expect(lines[0].contains("request-id=trace-42 [KuraServer] GET /v1/realms 200 "))
        #expect(lines[1].contains("request-id=\(generated) [KuraServer] GET /v1/realms/zoo/objects/Person/99 404 "))
    }

    @Test func realmsComeFromArgumentsOrConfigAndStartupFailuresExit() throws {
        try fixture.makeRealm("farm.realm")
        try fixture.writeConfig("realm: farm.realm\nserver:\n  realms:\n    barn: farm.realm\n")
        let server = try fixture.serve(["zoo.realm"])
        #expect(server.output.hasPrefix("Serving barn, zoo on http://127.0.0.1:"))
        #expect(server.stop() == 0)
        try fixture.writeConfig("realm: farm.realm\n")
        let fromRealmKey = try fixture.serve([])
        #expect(fromRealmKey.output.hasPrefix("Serving farm on http://127.0.0.1:"))
        #expect(fromRealmKey.stop() == 0)

        let missing = try Fixtures.run(fixture.kura, ["serve", fixture.path("gone.realm"), "--port", "0"], currentDirectory: fixture.folder)
        #expect(missing.status == 66)
        #expect(missing.stderr.hasSuffix("kura: error: realm 'gone': no realm file at '\(fixture.path("gone.realm"))'\n"))
    }

    @Test func checkAnswersWhatKuraCheckPrintsAsJSON() throws {
        let server = try fixture.serve()
        let reply = try server.request("/v1/realms/zoo/check")
        let printed = try Fixtures.run(fixture.kura, ["check", "zoo.realm", "--format", "json"], currentDirectory: fixture.folder)
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "application/json")
        #expect(reply.text == printed.stdout)
        #expect(reply.text.contains(#""problemCount" : 0"#))
        #expect(try server.request("/v1/realms/nope/check").status == 404)
    }

    @Test func metricsCountRequestsByRouteAndDocumentsByRealm() throws {
        let server = try fixture.serve()
        let export = try server.request("/v1/realms/zoo/export?format=jsonl")
        _ = try server.request("/v1/realms/zoo/objects/Person/1")
        _ = try server.request("/v1/realms/zoo/objects/Person/99")
        _ = try server.request(
            "/v1/realms/zoo/import?type=Person", method: "POST", headers: ["Content-Type": "application/x-ndjson"],
            body: Data(#"{"id": 40, "name": "Mo"}"#.utf8))
        let metrics = try server.request("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let lines = Set(metrics.text.split(separator: "\n").map(String.init))
        #expect(lines.contains(#"kura_http_requests_total{route="/v1/realms/{realm}/objects/{type}/{key}",method="GET",status="200"} 1"#))
        #expect(lines.contains(#"kura_http_requests_total{route="/v1/realms/{realm}/objects/{type}/{key}",method="GET",status="404"} 1"#))
        #expect(lines.contains(#"kura_http_requests_total{route="/v1/realms/{realm}/import",method="POST",status="200"} 1"#))
        #expect(lines.contains(#"kura_documents_exported_total{realm="zoo"} 3"#))
        #expect(lines.contains("kura_bytes_exported_total{realm=\"zoo\"} \(export.body.count)"))
        #expect(lines.contains(#"kura_documents_imported_total{realm="zoo"} 1"#))
        #expect(lines.contains(#"kura_bytes_imported_total{realm="zoo"} 24"#))
        #expect(lines.contains(#"kura_http_request_duration_seconds_count{route="/v1/realms/{realm}/export",method="GET"} 1"#))
    }
}
