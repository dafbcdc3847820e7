import Foundation
import Kura
import KuraTestSupport
import Testing

/// `kura serve` over a PostgreSQL realm, with two servers sharing it: a write through either, or
/// through another `kura` process, reaches both servers' reads and `/changes` streams, and an ETag
/// one server gave is checked by the other.
@Suite struct ServiceOnPostgresTests {
    /// A PostgreSQL realm of the sample schema holding Samples/people.json, and its schema's name.
    private func sampleRealm(_ fixture: ServiceFixture) throws -> (url: String, name: String) {
        let url = PostgresTestServer.freshRealmURL("served")
        let schema = Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml").path
        let people = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        #expect(try Fixtures.run(fixture.kura, ["init", url, "--schema", schema]).status == 0)
        #expect(try Fixtures.run(fixture.kura, ["import", url, people, "--type", "Person"]).status == 0)
        return (url, String(url.split(separator: "=").last ?? ""))
    }

    @Test func twoServersOverOneRealmSeeEachOthersWrites() throws {
        guard PostgresTestServer.isReady() else { return }
        let fixture = try ServiceFixture(makingSampleRealm: false)
        let (url, name) = try sampleRealm(fixture)
        let first = try ServerProcess(in: fixture.folder, [url])
        let second = try ServerProcess(in: try Fixtures.temporaryDirectory(), [url])
        let client = try EventStreamClient("http://127.0.0.1:\(second.port)/v1/realms/\(name)/changes")
        let start = try #require(client.startVersion())

        let created = try first.request(
            "/v1/realms/\(name)/import?type=Person", method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"[{"id": 40, "name": "Gus"}]"#.utf8))
        #expect(created.status == 200, "\(created.text)")
        let seen = client.events(count: 1)
        #expect(seen.map(\.id) == [String(start + 1)])
        #expect(seen.first?.data == #"{"version":\#(start + 1),"types":{"Person":{"inserted":[40],"modified":[],"deleted":[]}}}"#)

        // The second server reads what the first wrote, and its ETag holds on the first.
        let read = try second.request("/v1/realms/\(name)/objects/Person/40")
        #expect(read.status == 200)
        let tag = try #require(read.headers["etag"])
        let stale = try first.request(
            "/v1/realms/\(name)/objects/Person/40", method: "PATCH",
            headers: ["Content-Type": "application/json", "If-Match": #""0000""#], body: Data(#"{"name": "Gus B"}"#.utf8))
        #expect(stale.status == 412)
        let patched = try first.request(
            "/v1/realms/\(name)/objects/Person/40", method: "PATCH",
            headers: ["Content-Type": "application/json", "If-Match": tag], body: Data(#"{"name": "Gus B"}"#.utf8))
        #expect(patched.status == 200, "\(patched.text)")
        #expect(client.events(count: 2).last?.id == String(start + 2))

        // A `kura` process writing the realm directly reaches the stream too.
        let file = fixture.folder.appendingPathComponent("more.json")
        try #"[{"id": 41, "name": "Hal"}]"#.write(to: file, atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(fixture.kura, ["import", url, file.path, "--type", "Person"]).status == 0)
        #expect(client.events(count: 3).last?.id == String(start + 3))
        #expect(try second.request("/v1/realms/\(name)/objects/Person/41").status == 200)
        client.stop()
        #expect(first.stop() == 0)
        #expect(second.stop() == 0)
    }
}
