import Foundation
import Kura
import KuraTestSupport
import Testing

/// Every object has an address a client can learn, types without a primary key included: pages
/// list each object's URL, an object names its own, nested objects give theirs on request, and the
/// objects linking to any object can be listed. Documents stay what export writes.
@Suite struct ServiceObjectAddressTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    private func json(_ reply: HTTPReply) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
    }

    /// `kura export` of `type` in the sample realm as JSON Lines, one document per line.
    private func exported(_ type: String) throws -> [String] {
        let export = try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm"), "--type", type, "--format", "jsonl"])
        return export.stdout.split(separator: "\n").map { String($0) + "\n" }
    }

    @Test func aPageGivesTheURLOfEachObjectAndEachURLAnswersIt() async throws {
        let server = try await fixture.serveInProcess()
        let dogs = try await server.request("/v1/realms/zoo/objects/Dog")
        let export = try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm"), "--type", "Dog"])
        let documents = String(export.stdout.dropLast())
        #expect(dogs.text == "{\"objects\":\(documents),\"urls\":[\"/v1/realms/zoo/objects/Dog/1\",\"/v1/realms/zoo/objects/Dog/2\"],\"count\":2,\"next\":null}\n")
        // Each URL answers the document at the same place in the page, and names itself.
        for (url, document) in zip(try json(dogs)["urls"] as? [String] ?? [], try exported("Dog")) {
            let reply = try await server.request(url)
            #expect(reply.status == 200)
            #expect(reply.text == document)
            #expect(reply.headers["content-location"] == url)
        }
        // Types with a primary key too, through every page.
        let people = try json(try await server.request("/v1/realms/zoo/objects/Person?limit=2"))
        #expect(people["urls"] as? [String] == ["/v1/realms/zoo/objects/Person/1", "/v1/realms/zoo/objects/Person/2"])
        let next = try #require(people["next"] as? String)
        #expect(try json(try await server.request(next))["urls"] as? [String] == ["/v1/realms/zoo/objects/Person/3"])
        #expect(try await server.request("/v1/realms/zoo/objects/Person/3").headers["content-location"] == "/v1/realms/zoo/objects/Person/3")
    }

    @Test func nestedObjectsWithoutAKeyCarryTheirURLWhenAskedTo() async throws {
        let server = try await fixture.serveInProcess()
        #expect(try await !server.request("/v1/realms/zoo/objects/Person").text.contains("$url"))
        let page = try await server.request("/v1/realms/zoo/objects/Person?limit=2&nestedUrls=true")
        #expect(page.status == 200)
        // Rex, shared by Alice and Bob, keeps its "$id"; its toy and Fido get a "$url" as well; the
        // embedded address, which has no page of its own, gets none.
        let lines = page.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1] == #"{"id":1,"name":"Alice","dogs":[{"$id":"Dog-1","$url":"/v1/realms/zoo/objects/Dog/1","name":"Rex","age":3,"color":"brown","currentCity":null,"citiesVisited":["Oslo","Bergen"],"favoriteParksByCity":{"Oslo":"Frognerparken"},"companion":{"since":2021,"toy":"ball"},"favoriteToy":{"$url":"/v1/realms/zoo/objects/DogToy/1","name":"Squeaky duck"}}],"address":{"street":"Storgata 1","city":"Oslo","country":"Norway","postalCode":"0155"},"bestFriend":2,"createdAt":{"$date":"2024-03-01T09:30:00.000Z"}},"#)
        #expect(lines[2] == #"{"id":2,"name":"Bob","dogs":[{"$ref":"Dog-1"},{"$url":"/v1/realms/zoo/objects/Dog/2","name":"Fido","age":1,"color":null,"currentCity":null,"citiesVisited":[],"favoriteParksByCity":{},"companion":["stick",7,true],"favoriteToy":null}],"address":null,"bestFriend":1,"createdAt":{"$date":"2024-03-02T12:00:00.000Z"}}"#)
        // The next page asks for them too.
        #expect(lines[3].contains(#""next":"/v1/realms/zoo/objects/Person?limit=2&nestedUrls=true&after="#))
        // Each "$url" answers its object.
        #expect(try await server.request("/v1/realms/zoo/objects/Dog/2").text == (try exported("Dog"))[1])
        #expect(try await server.request("/v1/realms/zoo/objects/DogToy/1").text == #"{"name":"Squeaky duck"}"# + "\n")
        // One object too; its own URL, with the question asked, is in Content-Location.
        let alice = try await server.request("/v1/realms/zoo/objects/Person/1?nestedUrls=true")
        #expect(alice.text == String(lines[1].dropLast()) + "\n")
        #expect(alice.headers["content-location"] == "/v1/realms/zoo/objects/Person/1?nestedUrls=true")
        #expect(alice.headers["etag"] != (try await server.request("/v1/realms/zoo/objects/Person/1")).headers["etag"])
        let bad = try await server.request("/v1/realms/zoo/objects/Person/1?nestedUrls=yes")
        #expect(bad.status == 400)
        #expect(bad.text.contains(#""detail":"nestedUrls 'yes' is not true or false""#))
    }

    @Test func documentsWithURLsImportBackAsTheyWere() async throws {
        let server = try await fixture.serveInProcess()
        let page = try json(try await server.request("/v1/realms/zoo/objects/Person?nestedUrls=true"))
        let documents = try JSONSerialization.data(withJSONObject: try #require(page["objects"] as? [Any]))
        try documents.write(to: URL(fileURLWithPath: fixture.path("people-with-urls.json")))
        #expect(String(decoding: documents, as: UTF8.self).contains("$url"))
        try Fixtures.run(fixture.kura, ["init", fixture.path("copy.realm"), "--schema", Fixtures.samplesSchemaPath])
        // "$url" is no unknown key: even an import that refuses those takes it.
        let imported = try Fixtures.run(
            fixture.kura, ["import", fixture.path("copy.realm"), fixture.path("people-with-urls.json"), "--type", "Person", "--reject-unknown-keys"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let original = try Fixtures.run(fixture.kura, ["export", fixture.path("zoo.realm")])
        let copy = try Fixtures.run(fixture.kura, ["export", fixture.path("copy.realm")])
        #expect(!copy.stdout.isEmpty && copy.stdout == original.stdout)
    }

    @Test func backlinksListWhatLinksToAnObjectWithOrWithoutAKey() async throws {
        let server = try await fixture.serveInProcess()
        let rex = try await server.request("/v1/realms/zoo/objects/Dog/1/backlinks")
        #expect(rex.status == 200)
        #expect(rex.text == #"{"backlinks":[{"type":"Person","property":"dogs","count":2,"urls":["/v1/realms/zoo/objects/Person/1","/v1/realms/zoo/objects/Person/2"]}]}"# + "\n")
        #expect(try await server.request("/v1/realms/zoo/objects/Dog/1/backlinks?limit=1").text
            == #"{"backlinks":[{"type":"Person","property":"dogs","count":2,"urls":["/v1/realms/zoo/objects/Person/1"]}]}"# + "\n")
        #expect(try await server.request("/v1/realms/zoo/objects/DogToy/1/backlinks").text
            == #"{"backlinks":[{"type":"Dog","property":"favoriteToy","count":1,"urls":["/v1/realms/zoo/objects/Dog/1"]}]}"# + "\n")
        // Every property that can link to the type is listed, in schema order, those with no link too.
        #expect(try await server.request("/v1/realms/zoo/objects/Person/2/backlinks").text
            == #"{"backlinks":[{"type":"Person","property":"bestFriend","count":1,"urls":["/v1/realms/zoo/objects/Person/1"]},{"type":"DogClub","property":"members","count":0,"urls":[]}]}"# + "\n")
        let missing = try await server.request("/v1/realms/zoo/objects/Dog/9/backlinks")
        #expect(missing.status == 404)
        #expect(missing.text.contains(#""detail":"realm 'zoo' has no Dog with key '9'""#))
        let badLimit = try await server.request("/v1/realms/zoo/objects/Dog/1/backlinks?limit=0")
        #expect(badLimit.status == 400)
        #expect(badLimit.text.contains(#""detail":"limit '0' is not a whole number from 1 to 1000""#))
    }

    @Test func anObjectWithoutAKeyIsPatchedAtItsAddress() async throws {
        let server = try await fixture.serveInProcess()
        let json = ["Content-Type": "application/json"]
        let fido = try await server.request("/v1/realms/zoo/objects/Dog/2")
        let etag = try #require(fido.headers["etag"])
        // The properties given are set, the others kept; the ETag follows.
        let patched = try await server.request(
            "/v1/realms/zoo/objects/Dog/2", method: "PATCH", headers: json.merging(["If-Match": etag]) { $1 }, body: Data(#"{"age": 2, "color": "grey"}"#.utf8))
        #expect(patched.status == 200)
        let document = #"{"name":"Fido","age":2,"color":"grey","currentCity":null,"citiesVisited":[],"favoriteParksByCity":{},"companion":["stick",7,true],"favoriteToy":null}"# + "\n"
        #expect(patched.text == document)
        #expect(patched.headers["etag"] == (try await server.request("/v1/realms/zoo/objects/Dog/2")).headers["etag"])
        #expect(try await server.request("/v1/realms/zoo/objects/Dog/2").text == document)
        // Rex's owners still reach him, and Fido is the same object: Bob still has him.
        #expect(try await server.request("/v1/realms/zoo/objects/Dog/2/backlinks").text.contains(#""urls":["/v1/realms/zoo/objects/Person/2"]"#))
        // The old ETag no longer matches; a missing object is 404 (412 under If-Match); PUT is refused.
        let stale = try await server.request("/v1/realms/zoo/objects/Dog/2", method: "PATCH", headers: json.merging(["If-Match": etag]) { $1 }, body: Data("{}".utf8))
        #expect(stale.status == 412)
        let missing = try await server.request("/v1/realms/zoo/objects/Dog/9", method: "PATCH", headers: json, body: Data("{}".utf8))
        #expect(missing.status == 404)
        #expect(missing.text.contains(#""detail":"realm 'zoo' has no Dog with key '9'""#))
        #expect(try await server.request("/v1/realms/zoo/objects/Dog/9", method: "PATCH", headers: json.merging(["If-Match": "*"]) { $1 }, body: Data("{}".utf8)).status == 412)
        let put = try await server.request("/v1/realms/zoo/objects/Dog/2", method: "PUT", headers: json, body: Data("{}".utf8))
        #expect(put.status == 405)
        #expect(put.text.contains(#""detail":"type 'Dog' has no primary key: its objects cannot be replaced by URL, only patched, created by POST and deleted""#))
        // A document that does not fit is 422 and writes nothing.
        let bad = try await server.request("/v1/realms/zoo/objects/Dog/2", method: "PATCH", headers: json, body: Data(#"{"age": "old"}"#.utf8))
        #expect(bad.status == 422)
        #expect(bad.text.contains("expected int, found string"))
        #expect(try await server.request("/v1/realms/zoo/objects/Dog/2").text == document)
        #expect(try Fixtures.run(fixture.kura, ["check", fixture.path("zoo.realm")]).status == 0)
    }

    @Test func theOpenAPIDocumentSaysHowAKeyNamesAnObject() async throws {
        let server = try await fixture.serveInProcess()
        let document = try json(try await server.request("/openapi.json"))
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        // Each type has its own paths, keys of its own form: a person's id, a dog's object id.
        for path in ["/v1/realms/zoo/objects/Person/{key}", "/v1/realms/zoo/objects/Dog/{key}/backlinks"] {
            let get = try #require(paths[path]?["get"] as? [String: Any])
            let key = (get["parameters"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "key" }
            #expect(key?["description"] as? String == "The object's primary key as export writes it, percent-encoded (1, never 01 or +1); "
                + "for a type without a primary key, its object id: a positive integer, never reused in its type, as GET …/changes reports it "
                + "and urls, Content-Location, Location and \"$url\" give it. A type has one form or the other, so they never meet.")
            let schema = key?["schema"] as? [String: Any]
            #expect(schema?["type"] as? String == "integer")
            #expect((schema?["minimum"] as? Int) == (path.contains("Dog") ? 1 : Int.min))
        }
    }

    @Test func aDocumentImportsIntoAnObjectWithoutAKey() throws {
        let realm = try Realm(path: fixture.path("zoo.realm"))
        func node(_ text: String) throws -> DocumentNode {
            try #require(try JSONReader(bytes: Array(text.utf8), file: "patch.json", layout: .document).next())
        }
        let fido = try #require(try realm.object(ObjectRef(type: "Dog", id: 2)))
        try realm.write { _ = try realm.importDocument(try node(#"{"age": 4, "favoriteToy": {"name": "Rope"}}"#), into: fido, file: "patch.json") }
        #expect(try fido.value(forKey: "age") == .int(4))
        #expect(try fido.value(forKey: "name") == .string("Fido"))
        #expect(try realm.count("DogToy") == 2)
        // A person is named by its primary key, which a document gives: this is not how it is updated.
        let alice = try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(1)))
        do {
            try realm.write { _ = try realm.importDocument(try node(#"{"name": "Ann"}"#), into: alice, file: "patch.json") }
            Issue.record("a person was updated without its key")
        } catch let error as KuraError {
            #expect((error.underlying as? KuraError)?.code == .store(.typeMismatch))
            #expect(error.description == "patch.json:1:1: error: Person has a primary key or is embedded: a document names its object")
        }
        #expect(try alice.value(forKey: "name") == .string("Alice"))
    }

    @Test func linkingObjectsFromATypeFollowsAnyLinkProperty() throws {
        let realm = try Realm(path: fixture.path("zoo.realm"))
        let rex = try #require(try realm.object(ObjectRef(type: "Dog", id: 1)))
        #expect(try rex.linkingObjects(fromType: "Person", property: "dogs").map(\.ref.id) == [1, 2])
        let toy = try #require(try realm.object(ObjectRef(type: "DogToy", id: 1)))
        #expect(try toy.linkingObjects(fromType: "Dog", property: "favoriteToy").map(\.ref) == [rex.ref])
        expectKuraError(.store) { try rex.linkingObjects(fromType: "Person", property: "name") }
        do {
            _ = try rex.linkingObjects(fromType: "Person", property: "bestFriend")
            Issue.record("a link to Person is no link to Dog")
        } catch let error as KuraError {
            #expect(error.code == .store(.typeMismatch))
            #expect(error.message == "Person.bestFriend is not a link, list, set or map of links to Dog")
        }
    }
}
