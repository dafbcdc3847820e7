import Foundation
import KuraTestSupport
import Testing

/// Realm, type and key names in any script, and keys with reserved characters, travel in URLs
/// percent-encoded: the server decodes every path parameter before it looks the name up.
@Suite struct ServiceNamesTests {
    let fixture: ServiceFixture
    let server: InProcessServer

    init() async throws {
        fixture = try ServiceFixture(makingSampleRealm: false)
        try Fixtures.writeKeysRealm(at: fixture.path("café.realm"))
        let made = try Fixtures.run(fixture.kura, ["token", "new", "local", "--scope", "write", "--realm", "café"])
        guard made.status == 0 else { throw ServerStartFailure(log: made.stderr) }
        let lines = made.stdout.split(separator: "\n").map(String.init)
        token = lines.first ?? ""
        try fixture.writeConfig("server:\n  tokens:\n" + lines.dropFirst().map { "    \($0)\n" }.joined())
        server = try await fixture.serveInProcess(["café.realm"])
    }

    let token: String
    var auth: [String: String] { ["Authorization": "Bearer \(token)"] }

    @Test func encodedNamesReachTheirObjects() async throws {
        let one = try await server.request("/v1/realms/caf%C3%A9/objects/Caf%C3%A9/a%2Fb%20'c'", headers: auth)
        #expect(one.status == 200, "\(one.text)")
        #expect(one.text.trimmingCharacters(in: .newlines) == #"{"nom":"a/b 'c'","item":{"$oid":"507f1f77bcf86cd799439011"}}"#)
        let page = try await server.request("/v1/realms/caf%C3%A9/objects/Caf%C3%A9?where=item%20!%3D%20nil", headers: auth)
        #expect(page.status == 200, "\(page.text)")
        #expect(page.text.contains(#""count":1"#))
        let item = try await server.request("/v1/realms/caf%C3%A9/objects/Item/507f1f77bcf86cd799439011", headers: auth)
        #expect(item.status == 200, "\(item.text)")
        let tag = try await server.request("/v1/realms/caf%C3%A9/objects/Tag/6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f", headers: auth)
        #expect(tag.text.trimmingCharacters(in: .newlines) == #"{"code":"6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f","label":"blue"}"#)
        let schema = try await server.request("/v1/realms/caf%C3%A9/schema", headers: auth)
        #expect(schema.status == 200)
    }

    @Test func aTokenForTheRealmIsCheckedAgainstItsDecodedName() async throws {
        #expect(try await server.request("/v1/realms/caf%C3%A9/check", headers: auth).status == 200)
        #expect(try await server.request("/v1/realms/caf%C3%A9/check").status == 401)
        let missing = try await server.request("/v1/realms/caf%C3%A9/objects/Caf%C3%A9/nobody", headers: auth)
        #expect(missing.status == 404)
        #expect(missing.text.contains(#""detail":"realm 'café' has no Café with key 'nobody'""#))
    }

    @Test func anObjectIsDeletedByItsEncodedKey() async throws {
        let deleted = try await server.request("/v1/realms/caf%C3%A9/objects/Caf%C3%A9/a%2Fb%20'c'", method: "DELETE", headers: auth)
        #expect(deleted.status == 200 || deleted.status == 204, "\(deleted.text)")
        #expect(try await server.request("/v1/realms/caf%C3%A9/objects/Caf%C3%A9/a%2Fb%20'c'", headers: auth).status == 404)
    }
}

extension Fixtures {
    /// The schema and documents of a realm whose keys are of every kind: `Café` by a string with a
    /// slash and quotes, `Item` by an objectId, `Tag` by a uuid, linked through a link, a list and a map.
    static let keysSchema = """
        schemaVersion: 1
        types:
          Tag:
            primaryKey: code
            properties:
              code: uuid
              label: string
          Item:
            primaryKey: oid
            properties:
              oid: objectId
              tag: Tag?
              tags: list<Tag>
              byName: map<Tag?>
              other: Item?
          "Café":
            primaryKey: nom
            properties:
              nom: string
              item: Item?
        """

    static let keysDocuments = """
        [{"$type": "Tag", "code": "6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f", "label": "blue"},
         {"$type": "Item", "oid": {"$oid": "507f1f77bcf86cd799439011"}, "tag": "6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f",
          "tags": ["6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f"], "byName": {"a": "6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f"}, "other": null},
         {"$type": "Café", "nom": "a/b 'c'", "item": {"$oid": "507f1f77bcf86cd799439011"}}]
        """

    /// Makes the realm of `keysSchema` holding `keysDocuments` at `path`, with the kura command.
    static func writeKeysRealm(at path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let schema = folder.appendingPathComponent("keys-schema.yaml")
        let documents = folder.appendingPathComponent("keys.json")
        try keysSchema.write(to: schema, atomically: true, encoding: .utf8)
        try keysDocuments.write(to: documents, atomically: true, encoding: .utf8)
        let kura = executable("kura")
        for arguments in [["init", path, "--schema", schema.path], ["import", path, documents.path]] {
            let result = try run(kura, arguments)
            guard result.status == 0 else { throw ServerStartFailure(log: result.stderr) }
        }
    }
}
