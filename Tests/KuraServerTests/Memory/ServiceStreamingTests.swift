import Foundation
import Kura
import KuraTestSupport
import Testing

/// A large NDJSON body streamed to the server as it is made: imported whole, with the server's peak
/// memory far below the body's size (it reads the body as it parses it, never holding it).
@Suite struct ServiceStreamingTests {
    /// The server's peak resident set may not pass this (the service's target for a 1 GB upload).
    static let peakLimit = 96 * 1024 * 1024
    /// The body's size: well above the limit, so a server holding it could not pass.
    static let bodyBytes = 256 * 1024 * 1024
    /// Bytes of the long name in each document, which keeps the count of documents (and the time to
    /// map them) low for the bytes sent.
    static let nameBytes = 16 * 1024

    @Test func aLargeNDJSONUploadImportsWholeWithTheServerUnder96MB() throws {
        let fixture = try ServiceFixture()
        let schema = Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml").path
        #expect(try Fixtures.run(fixture.kura, ["init", fixture.path("big.realm"), "--schema", schema]).status == 0)
        let server = try fixture.serve(["big.realm"])
        let upload = try ChunkedUpload(port: server.port, path: "/v1/realms/big/import?type=Person", contentType: "application/x-ndjson")
        let filler = String(repeating: "abcdefghijklmnop", count: Self.nameBytes / 16)
        var sent = 0
        var documents = 0
        var chunk: [UInt8] = []
        chunk.reserveCapacity(1 << 20)
        while sent < Self.bodyBytes {
            documents += 1
            chunk += Array(#"{"id": \#(documents), "name": "\#(documents) \#(filler)", "address": {"city": "Oslo"}}"#.utf8)
            chunk.append(0x0A)
            if chunk.count >= 1 << 20 {
                try upload.send(chunk)
                sent += chunk.count
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try upload.send(chunk)
        let response = try upload.finish()
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(response.prefix(500))")
        #expect(response.contains(#"{"documents":\#(documents),"types":{"Address":{"inserted":\#(documents),"#))
        let peak = try #require(ServerMemory.peakResidentBytes(of: server.process.processIdentifier))
        #expect(peak < Self.peakLimit, "the server's peak RSS was \(peak / 1024 / 1024) MiB for a \(sent / 1024 / 1024) MiB body")
        print("ServiceStreamingTests: \(sent) bytes, \(documents) documents; the server's peak RSS \(peak / 1024) KiB")
        #expect(server.stop() == 0)
        let realm = try Realm(path: fixture.path("big.realm"))
        #expect(try realm.count("Person") == documents)
        #expect(try realm.count("Person", where: "name BEGINSWITH '\(documents) abc'") == 1)
    }
}
