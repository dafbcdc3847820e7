import Foundation
import Kura
import KuraTestSupport
import Testing

/// `GET …/objects/{type}` pages and `GET …/objects/{type}/{key}`, answered by the router in process.
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

    @Test func pagesFollowTheKeyAndTheCursorSurvivesInserts() async throws {
        try addPeople([10, 20, 30, 40])
        let server = try await fixture.serveInProcess()
        let first = try await server.request("/v1/realms/zoo/objects/Person?limit=3")
        #expect(first.status == 200)
        let one = try page(first)
        #expect(one.ids == [1, 2, 3])
        #expect(one.count == 7)
        #expect(one.next?.hasPrefix("/v1/realms/zoo/objects/Person?limit=3&after=") == true)
        // Objects inserted before the cursor do not shift the next page; ones after it appear in it.
        try addPeople([0, 4, 25])
        let two = try page(try await server.request(try #require(one.next)))
        #expect(two.ids == [4, 10, 20])
        #expect(two.count == 10)
        let three = try page(try await server.request(try #require(two.next)))
        #expect(three.ids == [25, 30, 40])
        #expect(three.next == nil)
        #expect(try page(try await server.request("/v1/realms/zoo/objects/Person")).ids.count == 10)
    }

    @Test func pagesTakeAPredicateAndKeepItInTheNextLink() async throws {
        try addPeople([10, 20, 30])
        let server = try await fixture.serveInProcess()
        let reply = try await server.request("/v1/realms/zoo/objects/Person?where=id%20%3E%3D%202%20AND%20name%20!=%20'P20'&limit=2")
        let one = try page(reply)
        #expect(one.ids == [2, 3])
        #expect(one.count == 4)
        #expect(one.next?.hasPrefix("/v1/realms/zoo/objects/Person?limit=2&where=id%20%3E%3D%202%20AND%20name%20%21%3D%20%27P20%27&after=") == true)
        let two = try page(try await server.request(try #require(one.next)))
        #expect(two.ids == [10, 30])
        #expect(two.next == nil)
        let badCursor = try await server.request("/v1/realms/zoo/objects/Person?after=3")
        #expect(badCursor.status == 400)
        #expect(badCursor.text == #"{"type":"/problems/bad-parameter","title":"Bad Request","status":400,"detail":"after '3' is not a cursor of this page: take it from next, or start again without it"}"# + "\n")
        // A cursor pages only the sort order it was made for.
        let otherSort = try await server.request(try #require(one.next) + "&sort=name")
        #expect(otherSort.status == 400)
        #expect(otherSort.text.contains("the cursor belongs to another sort order: start again without it"))
    }

    @Test func pageDocumentsAreWhatExportWrites() async throws {
        let server = try await fixture.serveInProcess()
        let reply = try await server.request("/v1/realms/zoo/objects/Person?limit=2")
        let export = try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm"), "--type", "Person", "--limit", "2"])
        let documents = export.stdout.hasSuffix("\n") ? String(export.stdout.dropLast()) : export.stdout
        let next = try #require(try page(reply).next)
        let urls = #"["/v1/realms/zoo/objects/Person/1","/v1/realms/zoo/objects/Person/2"]"#
        #expect(reply.text == "{\"objects\":\(documents),\"urls\":\(urls),\"count\":3,\"next\":\"\(next)\"}\n")
    }

    @Test func anObjectsETagIsTheStartOfItsDocumentsSHA256() async throws {
        let server = try await fixture.serveInProcess()
        let alice = try await server.request("/v1/realms/zoo/objects/Person/1")
        #expect(alice.status == 200)
        // The first 32 hex digits of the SHA-256 of the 415 bytes of Alice's document, as `sha256sum` prints them.
        #expect(alice.body.count == 415)
        #expect(alice.headers["etag"] == "\"faf95a891e3ee842ca458526f351af3d\"")
    }

    @Test func anObjectByKeyHasAnETagThatChangesWithIt() async throws {
        let server = try await fixture.serveInProcess()
        let first = try await server.request("/v1/realms/zoo/objects/Person/3")
        #expect(first.status == 200)
        #expect(first.headers["content-type"] == "application/json")
        let export = try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm"), "--type", "Person", "--where", "id == 3", "--format", "jsonl"])
        #expect(first.text == export.stdout)
        let tag = try #require(first.headers["etag"])
        #expect(tag.count == 34 && tag.hasPrefix("\""))
        #expect(try await server.request("/v1/realms/zoo/objects/Person/3").headers["etag"] == tag)
        let unchanged = try await server.request("/v1/realms/zoo/objects/Person/3", headers: ["If-None-Match": tag])
        #expect(unchanged.status == 304)
        #expect(unchanged.body.isEmpty)

        let realm = try Realm(path: fixture.path("zoo.realm"))
        try realm.write {
            try realm.create("Person", value: .map(["id": .int(3), "name": .string("Chen Li")]), update: .modified)
        }
        let changed = try await server.request("/v1/realms/zoo/objects/Person/3", headers: ["If-None-Match": tag])
        #expect(changed.status == 200)
        #expect(changed.text.contains("\"name\":\"Chen Li\""))
        #expect(changed.headers["etag"] != tag)
    }

    /// `kura export` of the one Person `key`, as a keyed GET must answer it.
    private func exported(_ key: Int) throws -> String {
        try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm"), "--type", "Person", "--where", "id == \(key)", "--format", "jsonl"]).stdout
    }

    @Test func keyedReadsOnPooledConnectionsSeeEveryWrite() async throws {
        let server = try await fixture.serveInProcess()
        // Reads first, so the pooled connection holds its prepared statements when the writes come.
        for key in [1, 2, 3, 1, 2] {
            #expect(try await server.request("/v1/realms/zoo/objects/Person/\(key)").text == (try exported(key)))
        }
        // A write through this server.
        let json = ["Content-Type": "application/json"]
        let patched = try await server.request("/v1/realms/zoo/objects/Person/3", method: "PATCH", headers: json, body: Data(#"{"name": "Chen Li"}"#.utf8))
        #expect(patched.status == 200)
        let afterPatch = try await server.request("/v1/realms/zoo/objects/Person/3")
        #expect(afterPatch.text.contains(#""name":"Chen Li""#))
        #expect(afterPatch.text == (try exported(3)))

        // A write from another process: new rows in the collections the read path loads in blocks.
        let realm = try Realm(path: fixture.path("zoo.realm"))
        try realm.write {
            let dog: Value = .map([
                "name": .string("Bella"), "age": .int(2), "citiesVisited": .list([.string("Oslo"), .string("Tromsø")]),
                "favoriteParksByCity": .map(["Oslo": .string("Vigeland")]), "companion": .string("cat"),
            ])
            try realm.create("Person", value: .map(["id": .int(3), "name": .string("Chen"), "dogs": .list([dog])]), update: .modified)
        }
        let afterImport = try await server.request("/v1/realms/zoo/objects/Person/3")
        #expect(afterImport.text.contains(#""citiesVisited":["Oslo","Tromsø"]"#))
        #expect(afterImport.text == (try exported(3)))
        #expect(afterImport.headers["etag"] != afterPatch.headers["etag"])

        // A schema change through the server: every read after it has the new property.
        let schema = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "schemaVersion: 1", with: "schemaVersion: 2")
            .replacingOccurrences(of: "      name: string\n      dogs: list<Dog>", with: "      name: string\n      nickname: string?\n      dogs: list<Dog>")
        #expect(schema.contains("nickname"))
        let migrated = try await server.request(
            "/v1/realms/zoo/migrate", method: "POST", headers: ["Content-Type": "application/yaml"], body: Data(schema.utf8))
        #expect(migrated.status == 200, "\(migrated.text)")
        for key in [1, 2, 3] {
            let reply = try await server.request("/v1/realms/zoo/objects/Person/\(key)")
            #expect(reply.text.contains(#""nickname":null"#))
            #expect(reply.text == (try exported(key)))
        }
    }

    @Test func sortedPagesNeitherRepeatNorSkipWhileObjectsAreInserted() async throws {
        // Names repeat, so ties fall back to the object id; people without a best friend sort first by it.
        let realm = try Realm(path: fixture.path("zoo.realm"))
        try realm.write {
            for key in Int64(100)..<140 {
                let friend: Value = key % 3 == 0 ? .null : .int(key % 3)
                try realm.create("Person", value: .map(["id": .int(key), "name": .string("N\(key % 7)"), "bestFriend": friend]))
            }
        }
        let server = try await fixture.serveInProcess()
        var nextKey: Int64 = 1000
        for sort in ["name", "name desc", "bestFriend.name desc, name", "bestFriend.name, name desc"] {
            let present = Set(try realm.objects("Person", where: nil).map { object -> Int64 in
                guard case .int(let key) = try object.value(forKey: "id") else { return -1 }
                return key
            })
            var seen: [Int64] = []
            var url: String? = "/v1/realms/zoo/objects/Person?limit=6&sort=" + (sort.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            while let next = url {
                let reply = try await server.request(next)
                #expect(reply.status == 200, "\(reply.text)")
                let object = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
                let objects = try #require(object["objects"] as? [[String: Any]])
                seen += objects.compactMap { ($0["id"] as? Int).map(Int64.init) }
                url = object["next"] as? String
                // Between pages, people are inserted on both sides of the cursor.
                try realm.write {
                    for name in ["A", "N3", "Z"] {
                        try realm.create("Person", value: .map(["id": .int(nextKey), "name": .string(name), "bestFriend": .int(2)]))
                        nextKey += 1
                    }
                }
            }
            #expect(Set(seen).count == seen.count, "\(sort): an object came twice")
            #expect(present.subtracting(seen).isEmpty, "\(sort): skipped \(present.subtracting(seen).sorted())")
        }
    }
}
