import Foundation
import Kura
import KuraTestSupport
import Testing

/// `DELETE …/objects/{type}/{key}` with `If-Match`, and `DELETE …/objects/{type}?where=…`, answered by the router in process.
@Suite struct ServiceDeleteTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    @Test func deletingByKeyHonoursIfMatchAndNullifiesLinks() async throws {
        let server = try await fixture.serveInProcess()
        let tag = try #require(try await server.request("/v1/realms/zoo/objects/Person/1").headers["etag"])
        let stale = try await server.request("/v1/realms/zoo/objects/Person/1", method: "DELETE", headers: ["If-Match": "\"0000\""])
        #expect(stale.status == 412)
        #expect(stale.text == #"{"type":"/problems/precondition-failed","title":"Precondition Failed","status":412,"detail":"Person '1' has changed: its ETag is no longer \"0000\""}"# + "\n")
        #expect(try await server.request("/v1/realms/zoo/objects/Person/1").status == 200)

        let deleted = try await server.request("/v1/realms/zoo/objects/Person/1", method: "DELETE", headers: ["If-Match": tag])
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        #expect(try await server.request("/v1/realms/zoo/objects/Person/1").status == 404)
        #expect(try await server.request("/v1/realms/zoo/objects/Person/2").text.contains(#""bestFriend":null"#))
        let again = try await server.request("/v1/realms/zoo/objects/Person/1", method: "DELETE")
        #expect(again.status == 404)
        #expect(again.text == #"{"type":"/problems/unknown-key","title":"Not Found","status":404,"detail":"realm 'zoo' has no Person with key '1'"}"# + "\n")
        #expect(try await server.request("/v1/realms/zoo/objects/Person/3", method: "DELETE").status == 204)
        #expect(try Realm(path: fixture.path("zoo.realm")).count("Person") == 1)
        #expect(try Fixtures.run(fixture.kura, ["check", fixture.path("zoo.realm")]).status == 0)
    }

    @Test func deletingByPredicateNeedsWhereAndCountsTheDeleted() async throws {
        let server = try await fixture.serveInProcess()
        let missing = try await server.request("/v1/realms/zoo/objects/Person", method: "DELETE")
        #expect(missing.status == 400)
        #expect(missing.text == #"{"type":"/problems/bad-parameter","title":"Bad Request","status":400,"detail":"where is required to delete objects; where=TRUEPREDICATE deletes them all"}"# + "\n")
        let bad = try await server.request("/v1/realms/zoo/objects/Person?where=nme%20==%201", method: "DELETE")
        #expect(bad.status == 400)
        let unbound = try await server.request("/v1/realms/zoo/objects/Person?where=name%20BEGINSWITH%20$0&args=%5B%22Z%22%5D", method: "DELETE")
        #expect(unbound.text == "{\"deleted\":0}\n")
        let some = try await server.request("/v1/realms/zoo/objects/Person?where=name%20BEGINSWITH%20$0&args=%5B%22B%22%5D", method: "DELETE")
        #expect(some.status == 200)
        #expect(some.text == "{\"deleted\":1}\n")
        let all = try await server.request("/v1/realms/zoo/objects/Dog?where=TRUEPREDICATE", method: "DELETE")
        #expect(all.text == "{\"deleted\":2}\n")
        #expect(try await server.request("/v1/realms").text.contains(#""counts":{"DogToy":1,"Dog":0,"Person":2,"DogClub":0}"#))
        #expect(try Fixtures.run(fixture.kura, ["check", fixture.path("zoo.realm")]).status == 0)
    }
}

/// `server.writeWait`: a write that waits longer than that for another writer is 503 with `Retry-After`.
@Suite struct ServiceWriteWaitTests {
    @Test func aWriteBehindABusyWriterIs503WithRetryAfter() throws {
        let fixture = try ServiceFixture()
        try fixture.writeConfig("server:\n  writeWait: 0.3\n")
        let server = try fixture.serve()
        let path = fixture.path("zoo.realm")
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            // Holds the write lock, writing nothing more, for longer than writeWait.
            guard let holder = try? Realm(path: path) else {
                started.signal()
                finished.signal()
                return
            }
            _ = try? holder.write {
                try holder.create("Person", value: .map(["id": .int(90), "name": .string("Holder")]))
                started.signal()
                Thread.sleep(forTimeInterval: 3)
            }
            finished.signal()
        }
        thread.start()
        started.wait()
        let busy = try server.request(
            "/v1/realms/zoo/import?type=Person", method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"[{"id": 91, "name": "Late"}]"#.utf8))
        let deleteBusy = try server.request("/v1/realms/zoo/objects/Person/1", method: "DELETE")
        let json = ["Content-Type": "application/json"]
        let postBusy = try server.request("/v1/realms/zoo/objects/Person", method: "POST", headers: json, body: Data(#"{"id": 92, "name": "Late"}"#.utf8))
        let patchBusy = try server.request("/v1/realms/zoo/objects/Person/1", method: "PATCH", headers: json, body: Data(#"{"name": "Late"}"#.utf8))
        finished.wait()
        for reply in [postBusy, patchBusy] {
            #expect(reply.status == 503)
            #expect(reply.headers["retry-after"] == "1")
        }
        #expect(try server.request("/v1/realms/zoo/objects/Person/92").status == 404)
        #expect(busy.status == 503)
        #expect(busy.headers["retry-after"] == "1")
        #expect(busy.text == #"{"type":"/problems/writer-busy","title":"Service Unavailable","status":503,"detail":"another write held the realm for longer than server.writeWait: try again"}"# + "\n")
        #expect(deleteBusy.status == 503)
        #expect(try server.request("/v1/realms/zoo/objects/Person/91").status == 404)
        #expect(try server.request("/v1/realms/zoo/objects/Person/90").status == 200)
        #expect(try server.request("/v1/realms/zoo/objects/Person/1", method: "DELETE").status == 204)
    }
}
