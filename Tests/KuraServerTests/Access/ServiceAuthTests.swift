import Foundation
import KuraServer
import KuraTestSupport
import Testing

/// Bearer tokens on the routes built so far: 401, 403 or success, as docs/service.md says.
@Suite struct ServiceAuthTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    /// `kura token new` run as a program: the token and its config entry.
    private func newToken(_ arguments: [String]) throws -> (token: String, entry: String) {
        let result = try Fixtures.run(fixture.kura, ["token", "new"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        return (lines[0], lines[1])
    }

    /// Serves zoo and farm with four tokens: read, write and admin on every realm, and admin on farm only.
    private func serveWithScopedTokens() throws -> (
        server: ServerProcess, read: (token: String, entry: String), write: (token: String, entry: String),
        admin: (token: String, entry: String), farmOnly: (token: String, entry: String)
    ) {
        try fixture.makeRealm("farm.realm")
        let read = try newToken(["reader", "--scope", "read"])
        let write = try newToken(["writer", "--scope", "write"])
        let admin = try newToken(["admin", "--scope", "admin"])
        let farmOnly = try newToken(["farmer", "--scope", "admin", "--realm", "farm"])
        try fixture.writeConfig("""
            server:
              realms: {zoo: zoo.realm, farm: farm.realm}
              tokens:
                \(read.entry)
                \(write.entry)
                \(admin.entry)
                \(farmOnly.entry)

            """)
        let server = try fixture.serve([])
        return (server, read, write, admin, farmOnly)
    }

    @Test func sha256MatchesKnownDigests() {
        #expect(SHA256Digest.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex(of: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func tokenNewPrintsTheTokenThenItsConfigEntry() throws {
        let (token, entry) = try newToken(["loader", "--scope", "write", "--realm", "zoo", "--realm", "farm"])
        #expect(token.hasPrefix("kura_") && token.count == 48)
        #expect(entry == "- {name: loader, sha256: \(SHA256Digest.hex(of: token)), scope: write, realms: [zoo, farm]}")
        let (other, everywhere) = try newToken(["reader", "--scope", "read"])
        #expect(other != token)
        #expect(everywhere == "- {name: reader, sha256: \(SHA256Digest.hex(of: other)), scope: read}")
        let bad = try Fixtures.run(fixture.kura, ["token", "new", "x", "--scope", "root"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("Error: --scope must be read, write or admin, not 'root'"))
    }

    @Test func everyReadRouteAnswers401403OrSuccessByToken() throws {
        let (server, read, write, admin, farmOnly) = try serveWithScopedTokens()
        let routes = [
            "/v1/realms/zoo/schema", "/v1/realms/zoo/export", "/v1/realms/zoo/objects/Person",
            "/v1/realms/zoo/objects/Person/1", "/v1/realms/zoo/check",
        ]
        let missing = #"{"type":"/problems/unauthorized","title":"Unauthorized","status":401,"detail":"a bearer token is needed: send Authorization: Bearer TOKEN"}"#
        let unknown = #"{"type":"/problems/unauthorized","title":"Unauthorized","status":401,"detail":"the bearer token is not one of this server's tokens"}"#
        let otherRealm = #"{"type":"/problems/forbidden","title":"Forbidden","status":403,"detail":"token 'farmer' may not use realm 'zoo'"}"#
        for route in routes + ["/v1/realms", "/metrics"] {
            let none = try server.request(route)
            #expect(none.status == 401, "\(route)")
            #expect(none.headers["www-authenticate"] == "Bearer", "\(route)")
            #expect(none.text == missing + "\n")
            let wrong = try server.request(route, headers: ["Authorization": "Bearer kura_not-a-token"])
            #expect(wrong.status == 401, "\(route)")
            #expect(wrong.headers["www-authenticate"] == "Bearer")
            #expect(wrong.text == unknown + "\n")
            for token in [read.token, write.token, admin.token] {
                #expect(try server.request(route, headers: ["Authorization": "Bearer \(token)"]).status == 200, "\(route)")
            }
        }
        for route in routes {
            let forbidden = try server.request(route, headers: ["Authorization": "Bearer \(farmOnly.token)"])
            #expect(forbidden.status == 403, "\(route)")
            #expect(forbidden.text == otherRealm + "\n")
        }
        // An import needs write on its realm.
        let post: (String?) throws -> HTTPReply = { token in
            var headers = ["Content-Type": "application/json"]
            if let token { headers["Authorization"] = "Bearer \(token)" }
            return try server.request("/v1/realms/zoo/import?type=Person", method: "POST", headers: headers, body: Data("[]".utf8))
        }
        #expect(try post(nil).status == 401)
        #expect(try post("kura_not-a-token").status == 401)
        let tooLittle = try post(read.token)
        #expect(tooLittle.status == 403)
        #expect(tooLittle.text == #"{"type":"/problems/forbidden","title":"Forbidden","status":403,"detail":"token 'reader' has scope read; this needs write"}"# + "\n")
        #expect(try post(write.token).status == 200)
        #expect(try post(admin.token).status == 200)
        #expect(try post(farmOnly.token).status == 403)
        let delete = try server.request(
            "/v1/realms/zoo/objects/Person/3", method: "DELETE", headers: ["Authorization": "Bearer \(read.token)"])
        #expect(delete.status == 403)
        #expect(try server.request("/v1/realms/zoo/objects/Person/3", method: "DELETE").status == 401)
        #expect(try server.request(
            "/v1/realms/zoo/objects/Person/3", method: "DELETE", headers: ["Authorization": "Bearer \(write.token)"]).status == 204)
        let listed = try server.request("/v1/realms", headers: ["Authorization": "Bearer \(farmOnly.token)"])
        #expect(listed.text.hasPrefix(#"{"realms":[{"name":"farm","#))
        #expect(!listed.text.contains("zoo"))
        // The change stream: read scope on its realm, answered before the stream starts.
        let changes = "/v1/realms/zoo/changes"
        #expect(try server.request(changes).text == missing + "\n")
        #expect(try server.request(changes, headers: ["Authorization": "Bearer \(farmOnly.token)"]).text == otherRealm + "\n")
        for token in [read.token, write.token, admin.token] {
            let stream = try EventStreamClient("http://127.0.0.1:\(server.port)\(changes)", headers: ["Authorization": "Bearer \(token)"])
            #expect(stream.startVersion() != nil)
            #expect(stream.head.hasPrefix("HTTP/1.1 200"))
            stream.stop()
        }
        // Probes need no token.
        #expect(try server.request("/healthz").status == 200)
        #expect(try server.request("/readyz").status == 200)
        #expect(server.stop() == 0)
        for token in [read.token, write.token, admin.token, farmOnly.token, "kura_not-a-token"] {
            #expect(!server.log.contains(token))
        }
        #expect(server.log.contains("GET /v1/realms/zoo/schema 401 "))
        #expect(server.log.contains("GET /v1/realms/zoo/schema 403 "))
    }

    @Test func theWriteRoutesOfOneObjectAndMigrateAnswerByScope() throws {
        let (server, read, write, admin, farmOnly) = try serveWithScopedTokens()
        let schema = try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml"))
        let person = Data(#"{"id": 3, "name": "Chen"}"#.utf8)
        // Method, path, body, content type, the scope it needs, and its success status.
        let routes: [(String, String, Data?, String?, AccessScope, Int)] = [
            ("GET", "/v1/realms/zoo/imports", nil, nil, .read, 200),
            ("POST", "/v1/realms/zoo/objects/Person", Data(#"{"name": "New"}"#.utf8), "application/json", .write, 201),
            ("PUT", "/v1/realms/zoo/objects/Person/3", person, "application/json", .write, 200),
            ("PATCH", "/v1/realms/zoo/objects/Person/3", person, "application/json", .write, 200),
            ("POST", "/v1/realms/zoo/migrate?dryRun=true", schema, "application/yaml", .admin, 200),
            ("POST", "/v1/realms/zoo/migrate", schema, "application/yaml", .admin, 200),
        ]
        for (method, path, body, contentType, needed, success) in routes {
            let send = { (token: String?) throws -> HTTPReply in
                var headers: [String: String] = [:]
                if let contentType { headers["Content-Type"] = contentType }
                if let token { headers["Authorization"] = "Bearer \(token)" }
                return try server.request(path, method: method, headers: headers, body: body)
            }
            let route = "\(method) \(path)"
            let none = try send(nil)
            #expect(none.status == 401, "\(route)")
            #expect(none.headers["www-authenticate"] == "Bearer", "\(route)")
            #expect(try send("kura_not-a-token").status == 401, "\(route)")
            for (token, scope) in [(read.token, AccessScope.read), (write.token, .write), (admin.token, .admin)] {
                let reply = try send(token)
                if scope >= needed {
                    #expect(reply.status == success, "\(route) with \(scope): \(reply.text)")
                } else {
                    #expect(reply.status == 403, "\(route) with \(scope)")
                    #expect(reply.text.contains("has scope \(scope.rawValue); this needs \(needed.rawValue)"), "\(route): \(reply.text)")
                }
            }
            let other = try send(farmOnly.token)
            #expect(other.status == 403, "\(route)")
            #expect(other.text.contains("token 'farmer' may not use realm 'zoo'"), "\(route)")
        }
        // The description of the routes needs no token.
        #expect(try server.request("/openapi.json").status == 200)
        #expect(server.stop() == 0)
        for token in [read.token, write.token, admin.token, farmOnly.token] { #expect(!server.log.contains(token)) }
    }

    @Test func refusesANonLoopbackHostWithoutTokens() throws {
        let result = try Fixtures.run(
            fixture.kura, ["serve", "zoo.realm", "--host", "0.0.0.0", "--port", "0"], currentDirectory: fixture.folder)
        #expect(result.status == 64)
        #expect(result.stderr == "kura: error: refusing to serve on '0.0.0.0' without tokens: add server.tokens (kura token new) or listen on 127.0.0.1\n")
        try fixture.writeConfig("server:\n  tokens:\n    - {name: x, sha256: abc, scope: read}\n")
        let badDigest = try Fixtures.run(fixture.kura, ["serve", "zoo.realm", "--port", "0"], currentDirectory: fixture.folder)
        #expect(badDigest.status == 64)
        #expect(badDigest.stderr == "kura: error: server.tokens: 'x': sha256 must be 64 lowercase hexadecimal digits\n")
    }
}
