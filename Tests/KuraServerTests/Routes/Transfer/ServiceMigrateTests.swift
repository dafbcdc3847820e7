import Foundation
import Kura
import KuraTestSupport
import Testing

/// `POST /v1/realms/{realm}/migrate`, answered by the router in process: the plan, then the result, as `kura migrate` prints them.
@Suite struct ServiceMigrateTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    private func sample(_ name: String) throws -> Data {
        try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Samples/\(name)"))
    }

    @Test func aDryRunGivesThePlanThenTheMigrationRunsAndARefusalIs422() async throws {
        let sampleFile = { (name: String) in Fixtures.packageRoot.appendingPathComponent("Samples/\(name)").path }
        let realm = fixture.path("diary.realm")
        #expect(try Fixtures.run(fixture.kura, ["init", realm, "--schema", sampleFile("diary-v1.yaml")]).status == 0)
        #expect(try Fixtures.run(fixture.kura, ["import", realm, sampleFile("diary.jsonl"), "--type", "Diary"]).status == 0)
        let server = try await fixture.serveInProcess(["diary.realm"])
        let yaml = ["Content-Type": "application/yaml"]
        let plan = #"{"fromVersion":1,"toVersion":2,"changes":[{"path":"Diary.id","summary":"primary key added"},{"path":"Diary.id","summary":"property added"}],"text":"schema version 1 -> 2\nDiary (5 objects)\n  primary key added: id\n  + id: added, each existing object gets a fresh uuid"}"#
        let dryRun = try await server.request("/v1/realms/diary/migrate?dryRun=true", method: "POST", headers: yaml, body: try sample("diary-v2.yaml"))
        #expect(dryRun.status == 200)
        #expect(dryRun.text == #"{"realm":"diary","plan":"# + plan + #","result":{"migrated":false,"message":"dry run: nothing was written"}}"# + "\n")
        #expect(try Realm(path: realm).schema.version == 1)

        let migrated = try await server.request("/v1/realms/diary/migrate", method: "POST", headers: yaml, body: try sample("diary-v2.yaml"))
        #expect(migrated.status == 200)
        #expect(migrated.text == #"{"realm":"diary","plan":"# + plan + #","result":{"migrated":true,"message":"migrated to schema version 2"}}"# + "\n")
        #expect(try Realm(path: realm).schema.version == 2)
        let again = try await server.request("/v1/realms/diary/migrate", method: "POST", headers: yaml, body: try sample("diary-v2.yaml"))
        #expect(again.text.contains(#""message":"already at schema version 2 with this schema: nothing to migrate"}"#))

        let refused = try await server.request("/v1/realms/diary/migrate", method: "POST", headers: yaml, body: try sample("diary-text-key.yaml"))
        #expect(refused.status == 422)
        #expect(refused.text.contains(#""detail":"Diary.text: cannot be the primary key: 1 value is held by more than one object: \"Rain all day.\" (2 objects)"#))
        let badSchema = try await server.request("/v1/realms/diary/migrate", method: "POST", headers: yaml, body: Data("types: [\n".utf8))
        #expect(badSchema.status == 422)
        #expect(try await server.request("/v1/realms/diary/migrate", method: "POST", headers: ["Content-Type": "text/plain"], body: Data()).status == 415)
        #expect(try await server.request("/v1/realms/nope/migrate", method: "POST", headers: yaml, body: try sample("diary-v2.yaml")).status == 404)
        #expect(try Fixtures.run(fixture.kura, ["check", realm]).status == 0)
    }
}
