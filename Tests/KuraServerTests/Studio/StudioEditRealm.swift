import Foundation
import KuraTestSupport
import Testing

/// The realm the editing walks change: items with a value of every kind, the owners their links
/// choose from (more than a page of the chooser), and a shelf without a primary key linking to items.
struct StudioEditRealm {
    static let schema = """
        schemaVersion: 1
        types:
          Item:
            primaryKey: id
            properties:
              id: int
              name: string
              count: int
              ratio: double
              done: bool
              when: date
              amount: decimal
              ref: objectId
              code: uuid
              blob: data?
              note: string?
              spec: Spec?
              numbers: list<int>
              tags: set<string>
              scores: map<double>
              owner: Owner?
              related: Item?
              any: mixed
          Spec:
            embedded: true
            properties:
              label: string
              size: int?
          Owner:
            primaryKey: name
            properties:
              name: string
              city: string?
              items: { linkingObjects: Item.owner }
          Shelf:
            properties:
              title: string
              items: list<Item>
        """

    static let items = #"""
        [{"id": 1, "name": "First", "count": 3, "ratio": 2.5, "done": true, "when": {"$date": "2024-01-02T03:04:05.006Z"},
          "amount": {"$numberDecimal": "12.50"}, "ref": {"$oid": "507f1f77bcf86cd799439011"}, "code": "6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f",
          "note": null, "spec": {"label": "s", "size": 2}, "numbers": [1, 2, 3], "tags": ["a", "b"], "scores": {"x": 1.5, "y": 2},
          "owner": "Ada", "related": 2, "any": "text"},
         {"id": 2, "name": "Second", "count": 0, "ratio": 0, "done": false, "when": {"$date": "2020-01-01T00:00:00.000Z"}, "amount": "1",
          "ref": {"$oid": "000000000000000000000000"}, "code": "00000000-0000-0000-0000-000000000000", "note": "was here",
          "numbers": [], "tags": [], "scores": {}},
         {"id": 3, "name": "Third", "count": 7, "ratio": 1, "done": true, "when": {"$date": "2021-01-01T00:00:00.000Z"}, "amount": "3",
          "ref": {"$oid": "000000000000000000000003"}, "code": "00000000-0000-0000-0000-000000000003", "spec": {"label": "t"},
          "numbers": [5], "tags": ["z"], "scores": {"x": 1}, "owner": "Grace"}]
        """#

    let fixture: ServiceFixture

    /// A fixture holding `edits.realm`, filled.
    init() throws {
        fixture = try ServiceFixture(makingSampleRealm: false)
        let kura = fixture.kura
        try Self.schema.write(toFile: fixture.path("edits.yaml"), atomically: true, encoding: .utf8)
        try Self.items.write(toFile: fixture.path("items.json"), atomically: true, encoding: .utf8)
        let owners = [#"{"name": "Ada", "city": "London"}"#, #"{"name": "Grace", "city": "Arlington"}"#]
            + (1...25).map { #"{"name": "Owner \#(String(format: "%02d", $0))"}"# }
        try owners.joined(separator: "\n").write(toFile: fixture.path("owners.jsonl"), atomically: true, encoding: .utf8)
        try #"{"title": "Top", "items": [2, 3]}"#.write(toFile: fixture.path("shelves.jsonl"), atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["init", fixture.path("edits.realm"), "--schema", fixture.path("edits.yaml")]).status == 0)
        #expect(try Fixtures.run(kura, ["import", fixture.path("edits.realm"), fixture.path("owners.jsonl"), "--type", "Owner"]).status == 0)
        #expect(try Fixtures.run(kura, ["import", fixture.path("edits.realm"), fixture.path("items.json"), "--type", "Item"]).status == 0)
        #expect(try Fixtures.run(kura, ["import", fixture.path("edits.realm"), fixture.path("shelves.jsonl"), "--type", "Shelf"]).status == 0)
    }

    /// The stored document of `type` `key`, as the API gives it (nil when there is none).
    static func stored(_ server: ServerProcess, _ type: String, _ key: String, token: String? = nil) throws -> NSDictionary? {
        let path = "/v1/realms/edits/objects/\(type)/\(key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key)"
        let reply = try server.request(path, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
        guard reply.status == 200 else { return nil }
        return try JSONSerialization.jsonObject(with: reply.body) as? NSDictionary
    }

    /// `document` with the top-level values of `changes` (JSON text per property) put in.
    static func changed(_ document: NSDictionary?, _ changes: [String: String]) throws -> NSDictionary {
        let copy = NSMutableDictionary()
        if let document { copy.addEntries(from: document as? [AnyHashable: Any] ?? [:]) }
        for (name, json) in changes {
            copy[name] = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        }
        return copy
    }
}
