import Foundation
import Kura
import KuraTestSupport
import Testing

/// `GET /v1/realms/{realm}/changes` over real HTTP: one server-sent event per commit, from this
/// server's writes and other processes' commits, resumable with `Last-Event-ID`.
@Suite struct ServiceChangesTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    private func stream(_ server: ServerProcess, headers: [String: String] = [:]) throws -> EventStreamClient {
        try EventStreamClient("http://127.0.0.1:\(server.port)/v1/realms/zoo/changes", headers: headers)
    }

    private func importPeople(_ server: ServerProcess, _ json: String, mode: String = "insert") throws {
        let reply = try server.request(
            "/v1/realms/zoo/import?type=Person&mode=\(mode)", method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(json.utf8))
        #expect(reply.status == 200, "\(reply.text)")
    }

    /// `kura import` of `json` as Person documents, run as its own process on the served file.
    private func importInAnotherProcess(_ json: String) throws {
        let file = fixture.folder.appendingPathComponent("\(UUID().uuidString).json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        let result = try Fixtures.run(fixture.kura, ["import", fixture.path("zoo.realm"), file.path, "--type", "Person"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    private static func change(_ version: Int, _ types: String) -> EventStreamClient.Event {
        EventStreamClient.Event(event: "change", id: String(version), data: #"{"version":\#(version),"types":{\#(types)}}"#)
    }

    @Test func oneEventPerCommitFromTheServerAndFromAnotherProcess() throws {
        let server = try fixture.serve()
        let dogs = try Realm(path: fixture.path("zoo.realm")).count("Dog")
        let client = try stream(server)
        let start = try #require(client.startVersion())
        #expect(client.head.hasPrefix("HTTP/1.1 200"))
        #expect(client.head.lowercased().contains("content-type: text/event-stream"))
        try importPeople(server, #"[{"id": 10, "name": "Dora"}, {"id": 11, "name": "Eve"}]"#)
        try importPeople(server, #"[{"id": 10, "name": "Dora B"}, {"id": 11, "name": "Eve"}]"#, mode: "modified")
        #expect(try server.request("/v1/realms/zoo/objects/Person/11", method: "DELETE").status == 204)
        try importInAnotherProcess(#"[{"id": 20, "name": "Finn", "dogs": [{"name": "Spot", "age": 1}]}]"#)
        #expect(try server.request("/v1/realms/zoo/objects/Dog?where=name%20%3D%3D%20'Spot'", method: "DELETE").status == 200)
        let events = client.events(count: 5)
        #expect(events == [
            Self.change(start + 1, #""Person":{"inserted":[10,11],"modified":[],"deleted":[]}"#),
            Self.change(start + 2, #""Person":{"inserted":[],"modified":[10],"deleted":[]}"#),
            Self.change(start + 3, #""Person":{"inserted":[],"modified":[],"deleted":[11]}"#),
            Self.change(
                start + 4,
                #""Dog":{"inserted":[\#(dogs + 1)],"modified":[],"deleted":[]},"Person":{"inserted":[20],"modified":[],"deleted":[]}"#),
            Self.change(
                start + 5,
                #""Dog":{"inserted":[],"modified":[],"deleted":[\#(dogs + 1)]},"Person":{"inserted":[],"modified":[20],"deleted":[]}"#),
        ])
        // Nothing more: a commit is one event, and a write that changed nothing is none.
        try importPeople(server, #"[{"id": 10, "name": "Dora B"}]"#, mode: "modified")
        Thread.sleep(forTimeInterval: 0.6)
        #expect(client.events.count == 5)
        #expect(client.isRunning)
        client.stop()
        let metrics = try server.request("/metrics")
        #expect(metrics.text.contains(#"route="/v1/realms/{realm}/changes",method="GET",status="200""#))
        #expect(server.stop() == 0)
    }

    @Test func resumesWithLastEventIDWithoutGapsOrRepeats() throws {
        let server = try fixture.serve()
        let live = try stream(server)
        let start = try #require(live.startVersion())
        for id in 30..<33 { try importPeople(server, #"[{"id": \#(id), "name": "P\#(id)"}]"#) }
        let firstThree = live.events(count: 3)
        #expect(firstThree.map(\.id) == [start + 1, start + 2, start + 3].map(String.init))
        // A client that saw the first event comes back while other processes keep committing.
        // Six processes each start, open and commit: on a loaded machine that takes a while, so the
        // events are awaited only once the last one has exited.
        let writerDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            for id in 40..<46 { try? self.importInAnotherProcess(#"[{"id": \#(id), "name": "Q\#(id)"}]"#) }
            writerDone.signal()
        }
        writer.start()
        let resumed = try stream(server, headers: ["Last-Event-ID": String(start + 1)])
        #expect(resumed.startVersion() == start + 1)
        try #require(writerDone.wait(timeout: .now() + 180) == .success)
        #expect(live.wait { $0.events.count == 9 })
        try importPeople(server, #"[{"id": 50, "name": "R50"}]"#)
        let all = live.events(count: 10)
        let after = resumed.events(count: 9)
        #expect(all.map(\.id) == (start + 1...start + 10).map(String.init))
        #expect(after == Array(all.dropFirst()))
        #expect(all[3].data == #"{"version":\#(start + 4),"types":{"Person":{"inserted":[40],"modified":[],"deleted":[]}}}"#)
        // Resuming from the latest version sends only what comes next.
        let upToDate = try stream(server, headers: ["Last-Event-ID": String(start + 10)])
        #expect(upToDate.startVersion() == start + 10)
        try importPeople(server, #"[{"id": 51, "name": "R51"}]"#)
        #expect(upToDate.events(count: 1).map(\.id) == [String(start + 11)])
        #expect(server.stop() == 0)
    }

    @Test func aLastEventIDTheLogNoLongerHoldsIs410AndABadOneIs400() throws {
        let realm = try Realm(path: fixture.path("zoo.realm"))
        for index in 0..<1002 { try realm.write { try realm.create("Person", value: ["name": .string("N\(index)")]) } }
        let latest = try realm.changeVersion
        let server = try fixture.serve()
        let gone = try server.request("/v1/realms/zoo/changes", headers: ["Last-Event-ID": "1"])
        #expect(gone.status == 410)
        #expect(gone.headers["content-type"] == "application/problem+json")
        #expect(gone.text == #"{"type":"/problems/changes-pruned","title":"Gone","status":410,"detail":"the change log starts after version \#(latest - 1000): the changes after version 1 are no longer recorded"}"# + "\n")
        let notANumber = try server.request("/v1/realms/zoo/changes", headers: ["Last-Event-ID": "seven"])
        #expect(notANumber.status == 400)
        #expect(notANumber.text.contains(#""detail":"Last-Event-ID 'seven' is not a version: it must be a whole number""#))
        let future = try server.request("/v1/realms/zoo/changes", headers: ["Last-Event-ID": String(latest + 5)])
        #expect(future.status == 400)
        #expect(future.text.contains(#""detail":"Last-Event-ID \#(latest + 5) is after the realm's latest version, \#(latest)""#))
        #expect(try server.request("/v1/realms/nowhere/changes").status == 404)
        // The oldest version still kept resumes.
        let oldest = try stream(server, headers: ["Last-Event-ID": String(latest - 1000)])
        #expect(oldest.events(count: 1000).count == 1000)
        #expect(oldest.events.first?.id == String(latest - 999))
        #expect(server.stop() == 0)
    }

    @Test func pastAThousandKeysOfAKindTheEventGivesTheCount() throws {
        let server = try fixture.serve()
        let client = try stream(server)
        let start = try #require(client.startVersion())
        let people: (Range<Int>, String) -> String = { ids, name in
            "[" + ids.map { #"{"id": \#($0), "name": "\#(name)\#($0)"}"# }.joined(separator: ",") + "]"
        }
        try importPeople(server, people(1000..<2000, "A"))
        try importPeople(server, people(3000..<4001, "B"))
        try importPeople(server, people(3000..<4001, "C"), mode: "modified")
        let reply = try server.request("/v1/realms/zoo/objects/Person?where=id%20%3E%3D%203000", method: "DELETE")
        #expect(reply.text == #"{"deleted":1001}"# + "\n")
        let events = client.events(count: 4)
        try #require(events.count == 4)
        let thousand = (1000..<2000).map(String.init).joined(separator: ",")
        #expect(events[0] == Self.change(start + 1, #""Person":{"inserted":[\#(thousand)],"modified":[],"deleted":[]}"#))
        #expect(events[1] == Self.change(start + 2, #""Person":{"inserted":1001,"modified":[],"deleted":[],"truncated":true}"#))
        #expect(events[2] == Self.change(start + 3, #""Person":{"inserted":[],"modified":1001,"deleted":[],"truncated":true}"#))
        #expect(events[3] == Self.change(start + 4, #""Person":{"inserted":[],"modified":[],"deleted":1001,"truncated":true}"#))
        #expect(server.stop() == 0)
    }

    @Test func sigtermEndsOpenStreamsWithoutWaitingForTheGrace() throws {
        try fixture.writeConfig("server:\n  shutdownGrace: 30\n")
        let server = try fixture.serve()
        let client = try stream(server)
        #expect(client.startVersion() != nil)
        let started = Date()
        #expect(server.stop() == 0)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(client.wait { !$0.isRunning })
    }

    @Test func anIdleStreamGetsAKeepAliveCommentAboutEveryFifteenSeconds() throws {
        let server = try fixture.serve()
        let client = try stream(server)
        #expect(client.startVersion() != nil)
        let opened = Date()
        #expect(client.wait(timeout: 25) { $0.body.contains("\n: keep-alive\n\n") })
        let waited = Date().timeIntervalSince(opened)
        #expect(waited > 13 && waited < 19, "the keep-alive came after \(waited) s")
        #expect(client.events.isEmpty)
        #expect(client.isRunning)
        client.stop()
    }
}
