import Foundation
import KuraTestSupport
import Testing

/// `GET /v1/realms/{realm}/imports`: the imports running now, with their bytes, documents and rate.
@Suite struct ServiceImportsListTests {
    @Test func aRunningImportIsListedWithItsProgressUntilItEnds() throws {
        let fixture = try ServiceFixture()
        let server = try fixture.serve()
        let empty = try server.request("/v1/realms/zoo/imports")
        #expect(empty.status == 200)
        #expect(empty.text == "{\"imports\":[]}\n")
        #expect(try server.request("/v1/realms/nope/imports").status == 404)

        let part = Data((100..<400).map { #"{"id": \#($0), "name": "P\#($0)"}"# + "\n" }.joined().utf8)
        let rest = Data((400..<500).map { #"{"id": \#($0), "name": "P\#($0)"}"# + "\n" }.joined().utf8)
        let client = try RawClient(port: server.port)
        try client.send(Array((
            "POST /v1/realms/zoo/import?type=Person HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Content-Type: application/x-ndjson\r\nContent-Length: \(part.count + rest.count)\r\n\r\n").utf8) + Array(part))
        // The import waits for the rest of its body; meanwhile it is listed with what it has read
        // (a busy machine may take a while to get that far).
        var listed: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let reply = try server.request("/v1/realms/zoo/imports")
            let imports = (try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])?["imports"] as? [[String: Any]] ?? []
            if let first = imports.first, first["documents"] as? Int ?? 0 >= 100 {
                listed = first
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(listed["type"] as? String == "Person")
        // Documents are counted every 100; bytes as they arrive.
        let documents = listed["documents"] as? Int ?? 0
        #expect(documents > 0 && documents <= 300 && documents % 100 == 0, "\(listed)")
        let bytes = listed["bytes"] as? Int ?? 0
        #expect(bytes > 0 && bytes <= part.count, "\(listed)")
        #expect((listed["documentsPerSecond"] as? Double ?? 0) > 0)
        #expect(listed["seconds"] != nil && listed["id"] != nil)
        try client.send(Array(rest))
        #expect(client.receive(until: "\"rejectedCount\"").contains("HTTP/1.1 200"))
        #expect(try server.request("/v1/realms/zoo/imports").text == "{\"imports\":[]}\n")
        #expect(try server.request("/v1/realms/zoo/objects/Person/499").status == 200)
    }
}
