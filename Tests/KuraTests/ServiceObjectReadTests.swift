import Foundation
import Kura
import Testing

/// `GET …/objects/{type}` pages and `GET …/objects/{type}/{key}` over real HTTP.
@Suite struct ServiceObjectReadTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    private func addPeople(_ keys: [Int64]) throws {
        let realm = try Realm(path: fixture.path("zoo.realm"))
        try realm.write {
            for key in keys { try realm.create("Person", value: .map(["id": .int(key), "name": .string("P\(key)")])) }
        }
    }

    private func page(_ reply: HTTPReply) throws -> (ids: [Int], count: Int, next: String?) {
        let object = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        let objects = try #require(object["objects"] as? [[String: Any]])
        return (objects.compactMap { $0["id"] as? Int }, object["count"] as? Int ?? -1, object["next"] as? String)
    }

    @Test func pagesFollowTheKeyAndTheCursorSurvivesInserts() throws {
        try addPeople([10, 20, 30, 40])
        let server = try fixture.serve()
        let first = try server.request("/v1/realms/zoo/objects/Person?limit=3")
        #expect(first.status == 200)
        let one = try page(first)
        #expect(one.ids == [1, 2, 3])
        #expect(one.count == 7)
        #expect(one.next == "/v1/realms/zoo/objects/Person?limit=3&after=3")
        // Objects inserted before the cursor do not shift the next page; ones after it appear in it.
        try addPeople([0, 4, 25])
        let two = try page(try server.request(try #require(one.next)))
        #expect(two.ids == [4, 10, 20])
        #expect(two.count == 10)
        let three = try page(try server.request(try #require(two.next)))
        #expect(three.ids == [25, 30, 40])
        #expect(three.next == nil)
        #expect(try page(try server.request("/v1/realms/zoo/objects/Person")).ids.count == 10)
    }

    @Test func pagesTakeAPredicateAndKeepItInTheNextLink() throws {
        try addPeople([10, 20, 30])
        let server = try fixture.serve()
        let reply = try server.request("/v1/realms/zoo/objects/Person?where=id%20%3E%3D%202%20AND%20name%20!=%20'P20'&limit=2")
        let one = try page(reply)
        #expect(one.ids == [2, 3])
        #expect(one.count == 4)
        #expect(one.next == "/v1/realms/zoo/objects/Person?limit=2&where=id%20%3E%3D%202%20AND%20name%20%21%3D%20%27P20%27&after=3")
        let two = try page(try server.request(try #require(one.next)))
        #expect(two.ids == [10, 30])
        #expect(two.next == nil)
        #expect(try server.request("/v1/realms/zoo/objects/Person?sort=name").status == 400)
    }

    @Test func pageDocumentsAreWhatExportWrites() throws {
        let server = try fixture.serve()
        let reply = try server.request("/v1/realms/zoo/objects/Person?limit=2")
        let export = try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm"), "--type", "Person", "--limit", "2"])
        let documents = export.stdout.hasSuffix("\n") ? String(export.stdout.dropLast()) : export.stdout
        #expect(reply.text == "{\"objects\":\(documents),\"count\":3,\"next\":\"/v1/realms/zoo/objects/Person?limit=2&after=2\"}\n")
    }

    @Test func anObjectByKeyHasAnETagThatChangesWithIt() throws {
        let server = try fixture.serve()
        let first = try server.request("/v1/realms/zoo/objects/Person/3")
        #expect(first.status == 200)
        #expect(first.headers["content-type"] == "application/json")
        let export = try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm"), "--type", "Person", "--where", "id == 3", "--format", "jsonl"])
        #expect(first.text == export.stdout)
        let tag = try #require(first.headers["etag"])
        #expect(tag.count == 34 && tag.hasPrefix("\""))
        #expect(try server.request("/v1/realms/zoo/objects/Person/3").headers["etag"] == tag)
        let unchanged = try server.request("/v1/realms/zoo/objects/Person/3", headers: ["If-None-Match": tag])
        #expect(unchanged.status == 304)
        #expect(unchanged.body.isEmpty)

        let realm = try Realm(path: fixture.path("zoo.realm"))
        try realm.write {
            try realm.create("Person", value: .map(["id": .int(3), "name": .string("Chen Li")]), update: .modified)
        }
        let changed = try server.request("/v1/realms/zoo/objects/Person/3", headers: ["If-None-Match": tag])
        #expect(changed.status == 200)
        #expect(changed.text.contains("\"name\":\"Chen Li\""))
        #expect(changed.headers["etag"] != tag)
    }
}
