import Foundation
import Kura
import KuraTestSupport
import Testing

/// `POST …/objects/{type}`, `PUT` and `PATCH …/objects/{type}/{key}`, answered by the router in process.
@Suite struct ServiceObjectWriteTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    private func post(_ server: InProcessServer, _ path: String, _ body: String, type: String = "application/json") async throws -> HTTPReply {
        try await server.request(path, method: "POST", headers: ["Content-Type": type], body: Data(body.utf8))
    }

    @Test func postCreatesAndAnswersTheExportedDocumentWithLocation() async throws {
        let server = try await fixture.serveInProcess()
        let created = try await post(server, "/v1/realms/zoo/objects/Person", #"{"id": 7, "name": "Dana", "createdAt": {"$date": "2024-05-01T00:00:00.000Z"}, "dogs": [{"name": "Max", "age": 2}]}"#)
        #expect(created.status == 201)
        #expect(created.headers["location"] == "/v1/realms/zoo/objects/Person/7")
        #expect(created.headers["content-type"] == "application/json")
        let read = try await server.request("/v1/realms/zoo/objects/Person/7")
        #expect(created.text == read.text)
        #expect(created.headers["etag"] == read.headers["etag"])
        #expect(read.text.contains(#""name":"Dana""#) && read.text.contains(#""name":"Max""#))

        let again = try await post(server, "/v1/realms/zoo/objects/Person", #"{"id": 7, "name": "Dana"}"#)
        #expect(again.status == 409)
        #expect(again.text == #"{"type":"/problems/exists","title":"Conflict","status":409,"detail":"body:1:1: error: $: an object of type Person with primary key 7 already exists"}"# + "\n")
        // Under another mode an existing object is updated: 200, without Location.
        let updated = try await post(server, "/v1/realms/zoo/objects/Person?mode=update", #"{"id": 7, "name": "Dana B"}"#)
        #expect(updated.status == 200)
        #expect(updated.headers["location"] == nil)
        #expect(updated.text.contains(#""name":"Dana B""#) && updated.text.contains(#""name":"Max""#))

        // A key with characters a path segment cannot hold is percent-encoded in Location.
        let yaml = try await post(server, "/v1/realms/zoo/objects/Person", "id: 8\nname: Eve\n", type: "application/yaml")
        #expect(yaml.status == 201)
        #expect(yaml.headers["location"] == "/v1/realms/zoo/objects/Person/8")
        // autoIncrement gives a key when the document has none.
        let numbered = try await post(server, "/v1/realms/zoo/objects/Person", #"{"name": "Finn"}"#)
        #expect(numbered.headers["location"] == "/v1/realms/zoo/objects/Person/9")
        #expect(try Fixtures.run(fixture.kura, ["check", fixture.path("zoo.realm")]).status == 0)
    }

    @Test func typesWithoutAPrimaryKeyAreNamedByObjectId() async throws {
        let server = try await fixture.serveInProcess()
        let created = try await post(server, "/v1/realms/zoo/objects/DogToy", #"{"name": "Rope"}"#)
        #expect(created.status == 201)
        let location = try #require(created.headers["location"])
        #expect(location == "/v1/realms/zoo/objects/DogToy/2")
        let read = try await server.request(location)
        #expect(read.text == "{\"name\":\"Rope\"}\n")
        // Their pages follow creation order.
        let first = try await server.request("/v1/realms/zoo/objects/DogToy?limit=1")
        #expect(first.text.hasPrefix("{\"objects\":[\n{\"name\":\"Squeaky duck\"}\n],\"urls\":[\"/v1/realms/zoo/objects/DogToy/1\"],\"count\":2,\"next\":\"/v1/realms/zoo/objects/DogToy?limit=1&after="))
        let next = try #require((try JSONSerialization.jsonObject(with: first.body) as? [String: Any])?["next"] as? String)
        #expect(try await server.request(next).text == "{\"objects\":[\n{\"name\":\"Rope\"}\n],\"urls\":[\"/v1/realms/zoo/objects/DogToy/2\"],\"count\":2,\"next\":null}\n")
        let put = try await server.request(location, method: "PUT", headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        #expect(put.status == 405)
        #expect(try await server.request("/v1/realms/zoo/objects/DogToy/x").status == 404)
        #expect(try await server.request(location, method: "DELETE", headers: ["If-Match": try #require(read.headers["etag"])]).status == 204)
        #expect(try await server.request(location).status == 404)
    }

    @Test func stringKeysArePercentEncodedInLocation() async throws {
        let schema = fixture.path("tags.yaml")
        try "schemaVersion: 1\ntypes:\n  Tag:\n    primaryKey: name\n    properties:\n      name: string\n      count: int?\n"
            .write(toFile: schema, atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(fixture.kura, ["init", fixture.path("tags.realm"), "--schema", schema]).status == 0)
        let server = try await fixture.serveInProcess(["tags.realm"])
        let created = try await post(server, "/v1/realms/tags/objects/Tag", #"{"name": "a/b c?é", "count": 1}"#)
        #expect(created.status == 201)
        let location = try #require(created.headers["location"])
        #expect(location == "/v1/realms/tags/objects/Tag/a%2Fb%20c%3F%C3%A9")
        #expect(try await server.request(location).text == "{\"name\":\"a/b c?é\",\"count\":1}\n")
        let patched = try await server.request(location, method: "PATCH", headers: ["Content-Type": "application/json"], body: Data(#"{"count": 2}"#.utf8))
        #expect(patched.status == 200)
        #expect(patched.text == "{\"name\":\"a/b c?é\",\"count\":2}\n")
    }

    @Test func badBodiesAre422415Or413() async throws {
        let server = try await fixture.serveInProcess()
        let invalid = try await post(server, "/v1/realms/zoo/objects/Person", "{\"id\": 5,\n \"name\": 12}")
        #expect(invalid.status == 422)
        #expect(invalid.text == #"{"type":"/problems/invalid-document","title":"Unprocessable Content","status":422,"detail":"the document has 1 error","errors":[{"line":2,"column":10,"path":"$.name","message":"body:2:10: error: $.name: expected string, found number 12"}]}"# + "\n")
        let malformed = try await post(server, "/v1/realms/zoo/objects/Person", "{\"id\": 5,\n \"name\": \"X\",}")
        #expect(malformed.status == 422)
        #expect(malformed.text.contains(#""errors":[{"line":2,"column":13,"path":"","message":"body:2:13: error: "#))
        #expect(try await post(server, "/v1/realms/zoo/objects/Person", "[{\"id\": 5}]").status == 422)
        let two = try await post(server, "/v1/realms/zoo/objects/Person", "id: 5\nname: A\n---\nid: 6\nname: B\n", type: "application/yaml")
        #expect(two.status == 422)
        #expect(two.text.contains("the body holds more than one document"))
        let unknownType = try await post(server, "/v1/realms/zoo/objects/Person", "{}", type: "text/plain")
        #expect(unknownType.status == 415)
        #expect(unknownType.text == #"{"type":"/problems/unsupported-media-type","title":"Unsupported Media Type","status":415,"detail":"Content-Type 'text/plain': send application/json, application/x-ndjson or application/yaml"}"# + "\n")
        let huge = Data(("{\"id\": 5, \"name\": \"" + String(repeating: "x", count: 1024 * 1024) + "\"}").utf8)
        let tooLarge = try await server.request(
            "/v1/realms/zoo/objects/Person", method: "POST", headers: ["Content-Type": "application/json"], body: huge)
        #expect(tooLarge.status == 413)
        #expect(tooLarge.text == #"{"type":"/problems/body-too-large","title":"Content Too Large","status":413,"detail":"this body may hold at most 1048576 bytes (only an import's may be larger)"}"# + "\n")
        // Without Content-Length the body is refused as soon as it grows past the limit.
        let chunked = try await server.request(
            "/v1/realms/zoo/objects/Person", method: "POST",
            headers: ["Content-Type": "application/json", "Transfer-Encoding": "chunked"], body: huge)
        #expect(chunked.status == 413)
        #expect(chunked.text == tooLarge.text)
        #expect(try await post(server, "/v1/realms/zoo/objects/Nope", "{}").status == 404)
        #expect(try await post(server, "/v1/realms/nope/objects/Person", "{}").status == 404)
        #expect(try await post(server, "/v1/realms/zoo/objects/Person?mode=upsert", "{}").status == 400)
        #expect(try Realm(path: fixture.path("zoo.realm")).count("Person") == 3)
    }

    @Test func putReplacesAndPatchUpdatesHonouringIfMatch() async throws {
        let server = try await fixture.serveInProcess()
        let path = "/v1/realms/zoo/objects/Person/3"
        let json = ["Content-Type": "application/json"]
        let before = try await server.request(path)
        let tag = try #require(before.headers["etag"])
        #expect(before.text.contains(#""address":{"street":null,"city":"Trondheim""#))

        let stale = try await server.request(path, method: "PATCH", headers: json.merging(["If-Match": "\"0000\""]) { $1 }, body: Data(#"{"name": "Chen Li"}"#.utf8))
        #expect(stale.status == 412)
        #expect(stale.text == #"{"type":"/problems/precondition-failed","title":"Precondition Failed","status":412,"detail":"Person '3' has changed: its ETag is no longer \"0000\""}"# + "\n")
        let patched = try await server.request(path, method: "PATCH", headers: json.merging(["If-Match": tag]) { $1 }, body: Data(#"{"name": "Chen Li"}"#.utf8))
        #expect(patched.status == 200)
        let newTag = try #require(patched.headers["etag"])
        #expect(newTag != tag)
        #expect(patched.text == before.text.replacingOccurrences(of: #""name":"Chen""#, with: #""name":"Chen Li""#))
        #expect(try await server.request(path).headers["etag"] == newTag)
        // The old tag no longer matches; `*` matches any existing object.
        #expect(try await server.request(path, method: "PATCH", headers: json.merging(["If-Match": tag]) { $1 }, body: Data("{}".utf8)).status == 412)

        let replaced = try await server.request(path, method: "PUT", headers: json.merging(["If-Match": "*"]) { $1 }, body: Data(#"{"name": "Chen"}"#.utf8))
        #expect(replaced.status == 200)
        #expect(replaced.text.contains(#""id":3,"name":"Chen","dogs":[],"address":null"#))
        #expect(replaced.headers["location"] == nil)

        let disagreeing = try await server.request(path, method: "PUT", headers: json, body: Data("{\"name\": \"X\",\n \"id\": 4}".utf8))
        #expect(disagreeing.status == 422)
        #expect(disagreeing.text == #"{"type":"/problems/invalid-document","title":"Unprocessable Content","status":422,"detail":"the document has 1 error","errors":[{"line":2,"column":8,"path":"$.id","message":"body:2:8: error: $.id: the key differs from the one in the URL, 3: the URL's key wins"}]}"# + "\n")
        #expect(try await server.request(path, method: "PUT", headers: json, body: Data(#"{"id": 3, "name": "Chen"}"#.utf8)).status == 200)

        let missing = "/v1/realms/zoo/objects/Person/40"
        #expect(try await server.request(missing, method: "PATCH", headers: json, body: Data(#"{"name": "N"}"#.utf8)).status == 404)
        #expect(try await server.request(missing, method: "PUT", headers: json.merging(["If-Match": "*"]) { $1 }, body: Data(#"{"name": "N"}"#.utf8)).status == 412)
        let created = try await server.request(missing, method: "PUT", headers: json, body: Data(#"{"name": "N"}"#.utf8))
        #expect(created.status == 201)
        #expect(created.headers["location"] == missing)
        #expect(try await server.request("/v1/realms/zoo/objects/Person/x", method: "PUT", headers: json, body: Data("{}".utf8)).status == 404)
        #expect(try Fixtures.run(fixture.kura, ["check", fixture.path("zoo.realm")]).status == 0)
    }
}
