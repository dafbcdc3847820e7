import Foundation
import Kura
import KuraTestSupport
import Testing

/// Other web pages may not use the server through their visitors' browsers: a state-changing
/// request from a foreign `Origin` is 403, every body needs its route's content type (415), and a
/// server on loopback answers only loopback host names unless `server.hosts` names others.
@Suite struct ServiceOriginTests {
    /// A served zoo and an empty `other.realm`, with `server:` settings `settings`.
    private static func serve(_ settings: String = "") throws -> (ServiceFixture, ServerProcess) {
        let fixture = try ServiceFixture()
        #expect(try Fixtures.run(fixture.kura, ["init", fixture.path("other.realm"), "--schema", Fixtures.samplesSchemaPath]).status == 0)
        if !settings.isEmpty { try fixture.writeConfig("server:\n" + settings) }
        return (fixture, try fixture.serve(["zoo.realm", "other.realm"]))
    }

    private static let copyBody = Data(#"{"source": "zoo", "destination": "other"}"#.utf8)

    @Test func aForeignOriginMayNotChangeRealms() throws {
        let (fixture, server) = try Self.serve("  origins: [\"https://app.example\"]\n")
        let foreign = try server.request(
            "/v1/copy", method: "POST", headers: ["Origin": "http://evil.example", "Content-Type": "application/json"], body: Self.copyBody)
        #expect(foreign.status == 403)
        #expect(foreign.text == #"{"type":"/problems/foreign-origin","title":"Forbidden","status":403,"detail":"a page from origin 'http://evil.example' may not change this server's realms: list it in server.origins to allow it"}"# + "\n")
        for (method, path) in [("DELETE", "/v1/realms/zoo/objects/Person/1"), ("PATCH", "/v1/realms/zoo/objects/Person/1"), ("POST", "/v1/realms/zoo/import")] {
            let reply = try server.request(path, method: method, headers: ["Origin": "null", "Content-Type": "application/json"], body: Data("{}".utf8))
            #expect(reply.status == 403, "\(method) \(path) from origin null: \(reply.text)")
        }
        // The server's own pages (the same scheme, host and port as the request's Host) and the listed origin may.
        let own = "http://127.0.0.1:\(server.port)"
        let patched = try server.request(
            "/v1/realms/zoo/objects/Person/1", method: "PATCH", headers: ["Origin": own, "Content-Type": "application/json"],
            body: Data(#"{"name": "Alice B"}"#.utf8))
        #expect(patched.status == 200, "\(patched.text)")
        let listed = try server.request(
            "/v1/copy", method: "POST", headers: ["Origin": "https://APP.example:443", "Content-Type": "application/json"], body: Self.copyBody)
        #expect(listed.status == 200, "\(listed.text)")
        // Reads are not refused: a browser keeps their answers from other origins anyway.
        #expect(try server.request("/v1/realms", headers: ["Origin": "http://evil.example"]).status == 200)
        #expect(try Realm(path: fixture.path("other.realm")).count("Person") == 3)
        #expect(server.stop() == 0)
    }

    @Test func everyBodyNeedsItsRoutesContentType() throws {
        let (fixture, server) = try Self.serve()
        let copy = try server.request("/v1/copy", method: "POST", headers: ["Content-Type": "text/plain"], body: Self.copyBody)
        #expect(copy.status == 415)
        #expect(copy.text.contains(#""detail":"Content-Type 'text/plain': send the copy as application/json""#), "\(copy.text)")
        let schema = Data("schemaVersion: 2\ntypes:\n  Person:\n    primaryKey: id\n    properties:\n      id: int\n".utf8)
        for type in [nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
            let headers = type.map { ["Content-Type": $0] } ?? [:]
            let migrate = try server.request("/v1/realms/zoo/migrate", method: "POST", headers: headers, body: schema)
            #expect(migrate.status == 415, "\(type ?? "no type"): \(migrate.text)")
        }
        let plain = try server.request(
            "/v1/realms/zoo/objects/Person", method: "POST", headers: ["Content-Type": "text/plain"], body: Data(#"{"id": 9, "name": "P"}"#.utf8))
        #expect(plain.status == 415)
        let realm = try Realm(path: fixture.path("zoo.realm"))
        #expect(realm.schema.version == 1)
        #expect(try realm.count("Person") == 3)
        #expect(try Realm(path: fixture.path("other.realm")).count("Person") == 0)
        #expect(server.stop() == 0)
    }

    @Test func aLoopbackServerAnswersOnlyLoopbackNamesAndTheListedHosts() throws {
        let (_, server) = try Self.serve("  hosts: [kura.internal]\n")
        for host in ["evil.example", "evil.example:\(server.port)", "127.0.0.1.evil.example", "localhost.evil.example"] {
            let reply = try server.request("/v1/realms", headers: ["Host": host])
            #expect(reply.status == 403, "Host \(host): \(reply.text)")
            #expect(reply.text.contains(#""type":"/problems/foreign-host""#))
        }
        for host in ["localhost", "localhost:\(server.port)", "127.0.0.1", "127.1.2.3:\(server.port)", "[::1]:\(server.port)", "KURA.internal"] {
            #expect(try server.request("/v1/realms", headers: ["Host": host]).status == 200, "Host \(host)")
        }
        #expect(server.stop() == 0)
    }

    @Test func aForeignPageInABrowserChangesNothing() throws {
        guard StudioBrowser.isReady() else { return }
        let (fixture, server) = try Self.serve()
        let seen = try StudioBrowser.observe("foreign_page.py", [String(server.port)])
        #expect((seen["formStatus"] as? String)?.contains(#""type":"/problems/foreign-origin""#) == true, "\(seen)")
        #expect(seen["rebindStatus"] as? Int == 403)
        #expect((seen["rebindBody"] as? String)?.contains("this server does not answer to host 'evil.test'") == true, "\(seen)")
        let realm = try Realm(path: fixture.path("zoo.realm"))
        #expect(realm.schema.version == 1)
        #expect(realm.schema[type: "Dog"] != nil)
        #expect(try realm.count("Person") == 3)
        #expect(try Realm(path: fixture.path("other.realm")).count("Person") == 0)
        let log = server.log
        #expect(log.contains("POST /v1/copy 403"), "\(log)")
        #expect(log.contains("POST /v1/realms/zoo/migrate 403"))
        #expect(server.stop() == 0)
    }
}
