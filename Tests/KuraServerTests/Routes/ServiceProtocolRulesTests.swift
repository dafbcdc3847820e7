import Foundation
import Kura
import KuraTestSupport
import Testing

/// HTTP's own rules, kept exactly: strong `If-Match`, `q=0` in `Accept`, one address per object,
/// client text quoted short, a realm whose file went away, metrics a token may see, and what an
/// import that fails after committing batches says.
@Suite struct ServiceProtocolRulesTests {
    @Test func ifMatchComparesStronglyAndIfNoneMatchWeakly() throws {
        let fixture = try ServiceFixture()
        let server = try fixture.serve()
        let tag = try #require(try server.request("/v1/realms/zoo/objects/Person/1").headers["etag"])
        #expect(try server.request("/v1/realms/zoo/objects/Person/1", headers: ["If-None-Match": "W/" + tag]).status == 304)
        let weak = try server.request(
            "/v1/realms/zoo/objects/Person/1", method: "PATCH", headers: ["If-Match": "W/" + tag, "Content-Type": "application/json"],
            body: Data(#"{"name": "Weak"}"#.utf8))
        #expect(weak.status == 412, "\(weak.text)")
        let deleted = try server.request("/v1/realms/zoo/objects/Person/1", method: "DELETE", headers: ["If-Match": "W/" + tag])
        #expect(deleted.status == 412)
        let strong = try server.request(
            "/v1/realms/zoo/objects/Person/1", method: "PATCH", headers: ["If-Match": tag, "Content-Type": "application/json"],
            body: Data(#"{"name": "Strong"}"#.utf8))
        #expect(strong.status == 200)
        #expect(server.stop() == 0)
    }

    /// A condition that is neither `*` nor a list of entity tags is refused, not taken as one that
    /// fails (or holds): the pattern the API document gives the two headers, kept.
    @Test func aMalformedConditionIsRefused() throws {
        let fixture = try ServiceFixture()
        let server = try fixture.serve()
        let tag = try #require(try server.request("/v1/realms/zoo/objects/Person/1").headers["etag"])
        for value in [".,.-I", "abc", "\"a\" \"b\"", "\"a\",", "W/abc", "\"a b\""] {
            let read = try server.request("/v1/realms/zoo/objects/Person/1", headers: ["If-None-Match": value])
            #expect(read.status == 400, "If-None-Match: \(value)")
            let patch = try server.request(
                "/v1/realms/zoo/objects/Person/1", method: "PATCH", headers: ["If-Match": value, "Content-Type": "application/json"],
                body: Data(#"{"name": "Never"}"#.utf8))
            #expect(patch.status == 400, "If-Match: \(value)")
            #expect(try server.request("/v1/realms/zoo/objects/Person/1", method: "DELETE", headers: ["If-Match": value]).status == 400)
        }
        let refused = try server.request("/v1/realms/zoo/objects/Person/1", headers: ["If-None-Match": "abc"])
        #expect(refused.text.contains(#""detail":"If-None-Match 'abc' is not * or a list of entity tags such as \"a1\", W/\"a1\"""#), "\(refused.text)")
        #expect(refused.headers["content-type"] == "application/problem+json")
        // Lists with spaces or tabs around their commas, and the empty list, are conditions.
        for value in ["\"0000\" ,\t" + tag, "W/\"x\", W/" + tag] {
            #expect(try server.request("/v1/realms/zoo/objects/Person/1", headers: ["If-None-Match": value]).status == 304, "\(value)")
        }
        #expect(try server.request("/v1/realms/zoo/objects/Person/1", headers: ["If-None-Match": ""]).status == 200)
        // The refused writes wrote nothing.
        let after = try server.request("/v1/realms/zoo/objects/Person/1")
        #expect(after.status == 200 && !after.text.contains("Never"))
        #expect(server.stop() == 0)
    }

    @Test func acceptHonoursQualities() throws {
        let fixture = try ServiceFixture()
        let server = try fixture.serve()
        let cases: [(String, String)] = [
            ("application/yaml;q=0", "application/json"),
            ("application/yaml;q=0, application/x-ndjson", "application/x-ndjson"),
            ("application/json;q=0.5, application/yaml", "application/yaml"),
            ("application/x-ndjson;q=0.9, application/yaml;q=0.9", "application/x-ndjson"),
        ]
        for (accept, expected) in cases {
            let export = try server.request("/v1/realms/zoo/export", headers: ["Accept": accept])
            #expect(export.headers["content-type"] == expected, "Accept: \(accept)")
        }
        let schema = try server.request("/v1/realms/zoo/schema", headers: ["Accept": "application/json;q=0"])
        #expect(schema.headers["content-type"] == "application/yaml")
        #expect(server.stop() == 0)
    }

    @Test func anObjectHasOneAddressAndClientTextIsQuotedShort() throws {
        let fixture = try ServiceFixture()
        let server = try fixture.serve()
        #expect(try server.request("/v1/realms/zoo/objects/Person/1").status == 200)
        for key in ["01", "+1", "1.0", "%201"] {
            let reply = try server.request("/v1/realms/zoo/objects/Person/\(key)")
            #expect(reply.status == 404, "key \(key)")
        }
        let digits = String(repeating: "9", count: 5000)
        let resume = try server.request("/v1/realms/zoo/changes", headers: ["Last-Event-ID": digits])
        #expect(resume.status == 400)
        #expect(resume.text.contains(#""detail":"Last-Event-ID '9999999999999999999999999999999999999999…' is not a version: it must be a whole number""#), "\(resume.text)")
        let mode = try server.request("/v1/realms/zoo/objects/Person?mode=\(String(repeating: "x", count: 3000))", method: "POST",
            headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        #expect(mode.status == 400)
        #expect(mode.text.count < 300, "\(mode.text.count) bytes")
        #expect(server.stop() == 0)
    }

    @Test func aRealmWhoseFileWentAwayIsUnavailableNotAnError() throws {
        let fixture = try ServiceFixture()
        try fixture.makeRealm("gone.realm")
        let server = try fixture.serve(["zoo.realm", "gone.realm"])
        #expect(try server.request("/v1/realms/gone/objects/Person/1").status == 200)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: fixture.path("gone.realm") + suffix) }
        for path in ["/v1/realms/gone/objects/Person/1", "/v1/realms/gone/export", "/v1/realms/gone/schema"] {
            let reply = try server.request(path)
            #expect(reply.status == 503, "\(path): \(reply.text)")
            #expect(reply.text.contains(#""detail":"realm 'gone' is unavailable: its file is missing""#), "\(path): \(reply.text)")
        }
        let ready = try server.request("/readyz")
        #expect(ready.status == 503)
        #expect(ready.text.contains(#""detail":"realm 'gone' is unavailable: its file is missing""#))
        #expect(!ready.text.contains(fixture.folder.path))
        #expect(try server.request("/v1/realms/zoo/objects/Person/1").status == 200)
        #expect(!server.log.contains(" error "), "\(server.log)")
        #expect(server.stop() == 0)
    }

    @Test func metricsShowATokenOnlyItsRealms() throws {
        let fixture = try ServiceFixture()
        try fixture.makeRealm("secret.realm")
        let made = try Fixtures.run(fixture.kura, ["token", "new", "zookeeper", "--scope", "write", "--realm", "zoo"])
        let lines = made.stdout.split(separator: "\n").map(String.init)
        let token = try #require(lines.first)
        let admin = try Fixtures.run(fixture.kura, ["token", "new", "root", "--scope", "admin"])
        let adminLines = admin.stdout.split(separator: "\n").map(String.init)
        let adminToken = try #require(adminLines.first)
        try fixture.writeConfig("server:\n  tokens:\n" + (lines.dropFirst() + adminLines.dropFirst()).map { "    \($0)\n" }.joined())
        let server = try fixture.serve(["zoo.realm", "secret.realm"])
        for realm in ["zoo", "secret"] {
            #expect(try server.request("/v1/realms/\(realm)/export", headers: ["Authorization": "Bearer \(adminToken)"]).status == 200)
        }
        let all = try server.request("/metrics", headers: ["Authorization": "Bearer \(adminToken)"]).text
        #expect(all.contains(#"kura_documents_exported_total{realm="secret"} 3"#), "\(all)")
        let scoped = try server.request("/metrics", headers: ["Authorization": "Bearer \(token)"])
        #expect(scoped.status == 200)
        #expect(scoped.text.contains(#"kura_documents_exported_total{realm="zoo"} 3"#))
        #expect(!scoped.text.contains("secret"), "\(scoped.text)")
        #expect(server.stop() == 0)
    }

    @Test func aSkipImportFailingAfterCommittedBatchesSaysHowManyDocumentsItCommitted() throws {
        let fixture = try ServiceFixture()
        try fixture.writeConfig("server:\n  maxBodyBytes: 600000\n")
        let server = try fixture.serve()
        func documents(_ ids: ClosedRange<Int>) -> [UInt8] {
            Array(ids.map { #"{"id": \#($0), "name": "P\#($0)"}"# + "\n" }.joined().utf8)
        }
        // Malformed text after the first batch of 10,000 committed.
        let malformed = try server.request(
            "/v1/realms/zoo/import?type=Person&onError=skip", method: "POST", headers: ["Content-Type": "application/x-ndjson"],
            body: Data(documents(100...10_200) + Array("{\"id\": 5, \"name\": \n".utf8)))
        #expect(malformed.status == 422)
        #expect(malformed.text.contains(#"; 10000 documents in 1 batch were committed before the failure""#), "\(malformed.text)")
        #expect(malformed.text.hasSuffix(#","committedDocuments":10000}"# + "\n"), "\(malformed.text)")
        let realm = try Realm(path: fixture.path("zoo.realm"))
        #expect(try realm.count("Person") == 10_003)

        // A body that grows past maxBodyBytes once a batch was committed.
        let upload = try ChunkedUpload(port: server.port, path: "/v1/realms/zoo/import?type=Person&onError=skip", contentType: "application/x-ndjson")
        try upload.send(documents(20_000...30_100))
        let deadline = Date().addingTimeInterval(30)
        while try realm.count("Person") < 20_003 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        try? upload.send(documents(40_000...60_000))
        let tooLarge = try upload.finish()
        #expect(tooLarge.hasPrefix("HTTP/1.1 413 "), "\(tooLarge.prefix(300))")
        #expect(tooLarge.contains(#""detail":"an import body may hold at most 600000 bytes (server.maxBodyBytes); 10000 documents were committed before the failure","committedDocuments":10000}"#), "\(tooLarge)")
        #expect(try realm.count("Person") == 20_003)
        #expect(server.stop() == 0)
    }

    @Test func aDocumentsErrorsNameTheirPaths() throws {
        let fixture = try ServiceFixture()
        let server = try fixture.serve()
        let two = try server.request(
            "/v1/realms/zoo/objects/Person", method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"{"id": "x", "name": 5}"#.utf8))
        #expect(two.status == 422)
        #expect(two.text.contains(#""detail":"the document has 2 errors""#), "\(two.text)")
        let unresolved = try server.request(
            "/v1/realms/zoo/import?type=Person", method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"[{"id": 40, "name": "A", "bestFriend": {"$ref": "nobody"}}]"#.utf8))
        #expect(unresolved.status == 422)
        let object = try #require(try JSONSerialization.jsonObject(with: unresolved.body) as? [String: Any])
        let errors = try #require(object["errors"] as? [[String: Any]])
        #expect(errors.first?["path"] as? String == "$[0].bestFriend", "\(unresolved.text)")
        #expect((errors.first?["message"] as? String)?.contains("$[0].bestFriend: ") == true)
        #expect(server.stop() == 0)
    }
}
