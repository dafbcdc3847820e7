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
    }
}
