import Foundation
import KuraServer
import KuraTestSupport
import Logging
import Testing

/// `GET /openapi.json` describes exactly the routes the router answers.
@Suite struct ServiceOpenAPITests {
    @Test func theDocumentListsEveryRouteOfTheRouterAndNoOther() async throws {
        let fixture = try ServiceFixture()
        var configuration = ServerConfiguration()
        configuration.realms = ["zoo": fixture.path("zoo.realm")]
        let routes = Set(try KuraService(configuration: configuration, logger: .init(label: "test")).routes)
        #expect(routes.contains("POST /v1/realms/{realm}/objects/{type}"))
        #expect(routes.contains("GET /openapi.json"))

        // Served without a token even where tokens are required.
        try fixture.writeConfig("server:\n  tokens:\n    - {name: x, sha256: \(String(repeating: "a", count: 64)), scope: read}\n")
        let server = try await fixture.serveInProcess()
        let reply = try await server.request("/openapi.json")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "application/json")
        let document = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var documented: Set<String> = []
        for (path, operations) in paths {
            for (method, operation) in operations {
                documented.insert("\(method.uppercased()) \(path)")
                let responses = try #require((operation as? [String: Any])?["responses"] as? [String: Any])
                #expect(responses["500"] != nil, "\(method) \(path)")
            }
        }
        #expect(routes.subtracting(documented).isEmpty, "routes missing from the document: \(routes.subtracting(documented).sorted())")
        #expect(documented.subtracting(routes).isEmpty, "documented but not routed: \(documented.subtracting(routes).sorted())")
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        #expect(schemas["Problem"] != nil)
        // Without a token, no realm's names, types or objects.
        #expect(!reply.text.contains("zoo"))
    }

    /// With a token (or on a server without tokens) the document describes the served realms as
    /// they are: each type's documents, and keys of objects that exist.
    @Test func theDocumentDescribesTheRealmsTypesAndObjects() async throws {
        let fixture = try ServiceFixture()
        let server = try await fixture.serveInProcess()
        let reply = try await server.request("/openapi.json")
        let document = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        // A person as export writes it: a date in its wrapper, a best friend by key, an embedded address nested.
        let person = try #require(schemas["zoo.Person"]?["properties"] as? [String: [String: Any]])
        let createdAt = try #require(person["createdAt"]?["properties"] as? [String: Any])
        #expect(createdAt["$date"] != nil)
        let bestFriend = person["bestFriend"]?["anyOf"] as? [[String: Any]]
        #expect(bestFriend?.first?["type"] as? String == "integer")
        let address = person["address"]?["anyOf"] as? [[String: Any]]
        #expect(address?.first?["$ref"] as? String == "#/components/schemas/zoo.Address")
        // A new person needs a name; the key counts up by itself; a PUT's body leaves the key to the URL.
        #expect(schemas["zoo.Person.in"]?["required"] as? [String] == ["name"])
        #expect((schemas["zoo.Person.put"]?["properties"] as? [String: Any])?["id"] as? Bool == false)
        // A write links by key to a type with one, by a nested document, or by {"$ref"} to a type without.
        let personIn = try #require(schemas["zoo.Person.in"]?["properties"] as? [String: [String: Any]])
        let friendChoices = (personIn["bestFriend"]?["anyOf"] as? [[String: Any]])?.first?["anyOf"] as? [[String: Any]]
        #expect(friendChoices?.first?["type"] as? String == "integer")
        #expect(friendChoices?.last?["$ref"] as? String == "#/components/schemas/zoo.Person.in")
        let dogChoices = ((personIn["dogs"]?["anyOf"] as? [[String: Any]])?.first?["items"] as? [String: Any])?["anyOf"] as? [[String: Any]]
        #expect(dogChoices?.first?["$ref"] as? String == "#/components/schemas/zoo.Dog.in")
        #expect((dogChoices?.last?["required"] as? [String]) == ["$ref"])
        let addressIn = (personIn["address"]?["anyOf"] as? [[String: Any]])?.first
        #expect(addressIn?["$ref"] as? String == "#/components/schemas/zoo.Address.in")
        // The realm's names and its objects' keys are what parameters offer.
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let get = try #require(paths["/v1/realms/zoo/objects/Person/{key}"]?["get"] as? [String: Any])
        let key = (get["parameters"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "key" }
        #expect(key?["example"] as? Int == 1)
        let export = try #require(paths["/v1/realms/{realm}/export"]?["get"] as? [String: Any])
        let realm = (export["parameters"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "realm" }
        #expect((realm?["schema"] as? [String: Any])?["enum"] as? [String] == ["zoo"])
        // A type without a primary key has no PUT: 405, naming what its objects take.
        #expect(paths["/v1/realms/zoo/objects/Dog/{key}"]?["put"] == nil)
        let put = try await server.request(
            "/v1/realms/zoo/objects/Dog/2", method: "PUT", headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        #expect(put.status == 405)
        #expect(put.headers["allow"] == "DELETE, GET, HEAD, PATCH")
        let trace = try await server.request("/v1/realms/zoo/objects/Person/1", method: "TRACE")
        #expect(trace.status == 405)
        #expect(trace.headers["allow"] == "DELETE, GET, HEAD, PATCH, PUT")
        // HEAD answers as GET, without the body: the same status and headers.
        let gotten = try await server.request("/v1/realms/zoo/objects/Person/1")
        let headed = try await server.request("/v1/realms/zoo/objects/Person/1", method: "HEAD")
        #expect(headed.status == 200)
        #expect(headed.body.isEmpty)
        #expect(headed.headers["etag"] == gotten.headers["etag"])
        #expect(headed.headers["content-length"] == gotten.headers["content-length"])
        #expect(try await server.request("/v1/realms/zoo/objects/Person/99", method: "HEAD").status == 404)
        let exportHead = try await server.request("/v1/realms/zoo/export?format=jsonl", method: "HEAD")
        #expect(exportHead.status == 200)
        #expect(exportHead.headers["content-type"] == "application/x-ndjson")
        #expect(try await server.request("/v1/realms/zoo/export?type=Cat", method: "HEAD").status == 404)
        #expect(try await server.request("/v1/nowhere", method: "TRACE").status == 404)
    }
}
