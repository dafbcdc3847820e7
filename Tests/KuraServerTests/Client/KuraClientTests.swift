import Foundation
import Kura
import KuraClient
import KuraTestSupport
import NIOCore
import Testing

/// `KuraClient` against a real `kura serve`: imports from a sequence of bytes, exports, counts and
/// deletes, and the server's refusals as the library's errors.
@Suite struct KuraClientTests {
    let fixture: ServiceFixture

    init() throws {
        fixture = try ServiceFixture()
        // The client's body and response pieces move on Swift's shared threads, which the whole
        // suite's synchronous tests can hold for longer than the server's idle limits; the limits
        // are not what these tests are about (see PatientHTTPClient).
        try fixture.writeConfig("server:\n  bodyIdleTimeout: 3600\n  sendIdleTimeout: 3600\n")
    }

    private func client(_ server: ServerProcess, realm: String = "zoo") throws -> KuraClient {
        KuraClient(realm: try RemoteRealmURL("http://127.0.0.1:\(server.port)/v1/realms/\(realm)"), httpClient: PatientHTTPClient.shared)
    }

    /// `text` in pieces of `size` bytes, as a sequence a program might stream.
    private func pieces(_ text: String, size: Int) -> AsyncStream<ByteBuffer> {
        let bytes = Array(text.utf8)
        return AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) {
                continuation.yield(ByteBuffer(bytes: bytes[start..<min(start + size, bytes.count)]))
            }
            continuation.finish()
        }
    }

    @Test func documentsStreamedInPiecesAreImportedAndExportedBack() async throws {
        let server = try fixture.serve()
        let zoo = try client(server)
        let lines = """
            {"id": 60, "name": "Gus", "dogs": [{"name": "Odie", "age": 4}]}
            {"id": 61, "name": "Hal"}

            """
        var options = ImportOptions(type: "Person")
        options.mode = .update
        let summary = try await zoo.importDocuments(pieces(lines, size: 7), format: .jsonl, options, name: "people.jsonl")
        #expect(summary.documents == 2)
        #expect(summary.counts["Person"] == ChangeCounts(inserted: 2))
        #expect(summary.counts["Dog"] == ChangeCounts(inserted: 1))
        #expect(try await zoo.count("Person", where: "id >= 60") == 2)
        var exported: [UInt8] = []
        let bytes = try await zoo.export(type: "Person", where: "id >= 60", sort: "id", format: .jsonl) { exported.append(contentsOf: $0.readableBytesView) }
        #expect(bytes == exported.count)
        let documents = String(decoding: exported, as: UTF8.self).split(separator: "\n")
        #expect(documents.count == 2)
        #expect(documents.first?.hasPrefix(#"{"id":60,"name":"Gus","dogs":[{"name":"Odie","age":4,"#) == true)
        #expect(documents.last?.hasPrefix(#"{"id":61,"name":"Hal","dogs":[],"#) == true)
        #expect(try await zoo.delete("Person", where: "id >= 60") == 2)
        #expect(try await zoo.schema().types.map(\.name).sorted() == ["Address", "Dog", "DogClub", "DogToy", "Person"])
        #expect(try await zoo.check().isHealthy)
        #expect(server.stop() == 0)
    }

    @Test func theServersRefusalsAreTheLibrarysErrors() async throws {
        let server = try fixture.serve()
        let zoo = try client(server)
        let bad = #"[{"id": 70, "name": "Ivy", "dogs": [{"name": "Rex", "age": "old"}]}]"#
        let invalid = await #expect(throws: KuraError.self) {
            try await zoo.importDocuments(pieces(bad, size: 5), format: .json, ImportOptions(type: "Person"), name: "ivy.json")
        }
        #expect(invalid?.code == .mapping(.invalidValue))
        #expect(invalid?.description == #"ivy.json:1:60: error: $[0].dogs[0].age: expected int, found string "old""#)
        #expect(try await zoo.count("Person") == 3)
        let query = await #expect(throws: KuraError.self) { try await zoo.count("Person", where: "id >>= 2") }
        #expect(query?.code == .query(.syntax))
        #expect(query?.description == "where: column 5: error: expected a value after '>', found '>='")
        let missing = await #expect(throws: KuraError.self) { try await client(server, realm: "nowhere").schema() }
        #expect(missing?.code == .remote(.noRealm))
        #expect(server.stop() == 0)
        let gone = await #expect(throws: KuraError.self) { try await zoo.schema() }
        #expect(gone?.code == .remote(.unreachable))
        // The shared client says a refused connection at once, not after its ten-second connect timeout.
        let started = ContinuousClock.now
        let refused = await #expect(throws: KuraError.self) {
            try await KuraClient(realm: try RemoteRealmURL("http://127.0.0.1:\(server.port)/v1/realms/zoo")).schema()
        }
        #expect(refused?.code == .remote(.unreachable))
        #expect(ContinuousClock.now - started < .seconds(8))
    }

    @Test func aRealmURLSaysWhatIsWrongWithIt() {
        #expect(throws: KuraError.self) { try RemoteRealmURL("ftp://host/v1/realms/zoo") }
        #expect((try? RemoteRealmURL("https://kura.example.com/v1/realms/z%20oo/"))?.name == "z oo")
        #expect((try? RemoteRealmURL("http://[::1]:8080/v1/realms/zoo"))?.description == "http://[::1]:8080/v1/realms/zoo")
        #expect((try? RemoteRealmURL("HTTPS://Kura.example.com/v1/realms/zoo"))?.port == 443)
        let withQuery = #expect(throws: KuraError.self) { try RemoteRealmURL("https://kura.example.com/v1/realms/zoo?token=abc") }
        #expect(withQuery?.code == .remote(.invalidURL))
        #expect(withQuery?.message == "'https://kura.example.com/v1/realms/zoo?token=abc' is not a served realm's URL: it must end with the realm's name, without a query or fragment")
    }
}
