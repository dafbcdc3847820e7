import Foundation
import Kura
import KuraClient
import KuraTestSupport
import Testing

/// `KuraClient` reading a served realm: objects as the library's models with their links, the
/// export's documents one by one, and the realm's commits as they happen.
@Suite struct KuraClientReadingTests {
    let fixture: ServiceFixture

    init() throws {
        fixture = try ServiceFixture()
        // As in KuraClientTests: the suite's load, not the limits, is what these would meet
        // (see PatientHTTPClient).
        try fixture.writeConfig("server:\n  bodyIdleTimeout: 3600\n  sendIdleTimeout: 3600\n")
    }

    private func client(_ server: ServerProcess) throws -> KuraClient {
        KuraClient(realm: try RemoteRealmURL("http://127.0.0.1:\(server.port)/v1/realms/zoo"), httpClient: PatientHTTPClient.shared)
    }

    @Test func objectsAreTheLibrarysModelsWithTheirLinksAndCycles() async throws {
        let server = try fixture.serve()
        let zoo = try client(server)
        let models: [any KuraObject.Type] = [Dog.self, DogToy.self, Address.self]
        let alice = try #require(try await zoo.objects(Person.self, where: "name == $0", arguments: ["Alice"], models: models).first)
        let local = try #require(try Realm(path: fixture.path("zoo.realm")).objects(Person.self).first { $0.name == "Alice" })
        #expect(alice.id == local.id)
        #expect(alice.address == local.address)
        #expect(alice.createdAt == local.createdAt)
        #expect(alice.dogs.map(\.name) == local.dogs.map(\.name))
        #expect(alice.dogs.first?.favoriteToy == DogToy(name: "Squeaky duck"))
        // Bob came along as Alice's best friend, though the predicate did not select him.
        let bob = try #require(alice.bestFriend)
        #expect(bob.name == "Bob")
        #expect(bob.bestFriend === alice)
        #expect(bob.dogs.first === alice.dogs.first, "Rex is one dog, shared")
        // Sorted and limited as export takes them; the linked objects are not in the answer.
        let sorted = try await zoo.objects(Person.self, sortedBy: "name desc", limit: 2, models: models)
        #expect(sorted.map(\.name) == ["Chen", "Bob"])
        #expect(try await zoo.objects(Person.self, where: "id > 10", models: models).isEmpty)
        // The models Person reaches are found from it; listing them is for those it cannot name.
        #expect(try await zoo.objects(Person.self).map(\.name) == ["Alice", "Bob", "Chen"])
        let badQuery = await #expect(throws: KuraError.self) { try await zoo.objects(Person.self, where: "id >>= 2", models: models) }
        #expect(badQuery?.description == "where: column 5: error: expected a value after '>', found '>='")
        #expect(server.stop() == 0)
    }

    @Test func documentsArriveOneByOneAndStoppingEndsTheDownload() async throws {
        let server = try fixture.serve()
        let zoo = try client(server)
        var names: [String] = []
        for try await document in zoo.documents(ExportOptions(type: "Person", sort: "id")) {
            guard case .object(let members) = document.value, case .string(let name)? = members.first(where: { $0.key == "name" })?.value.value else {
                Issue.record("not a document with a name: \(document)")
                continue
            }
            names.append(name)
            #expect(document.position.column == 1)
        }
        #expect(names == ["Alice", "Bob", "Chen"])
        var first: DocumentNode?
        for try await document in zoo.documents() {
            first = document
            break
        }
        #expect(first != nil)
        let missing = await #expect(throws: KuraError.self) {
            for try await _ in zoo.documents(ExportOptions(type: "Cat")) {}
        }
        #expect(missing?.code == .store(.unknownType))
        #expect(server.stop() == 0)
    }

    @Test func commitsArriveAsTheyHappenAndResumeAfterAVersion() async throws {
        let server = try fixture.serve()
        let zoo = try client(server)
        var options = ImportOptions(type: "Person")
        options.mode = .update
        let feed = zoo.changes()
        var live = feed.makeAsyncIterator()
        // The stream is open once the server has sent its first comment; a write then shows up.
        try await Task.sleep(for: .milliseconds(500))
        let line = #"{"id": 70, "name": "Ivy"}"# + "\n"
        _ = try await zoo.importDocuments(AsyncStream { $0.yield(.init(string: line)); $0.finish() }, format: .jsonl, options)
        let change = try #require(try await live.next())
        #expect(change.types["Person"] == ServedTypeChanges(inserted: [.int(70)]))
        #expect(change.schemaChanged == false)
        _ = try await zoo.delete("Person", where: "id == 70")
        let deletion = try #require(try await live.next())
        #expect(deletion.version == change.version + 1)
        #expect(deletion.types["Person"]?.deleted == [.int(70)])
        // From a version on: the commits after it first, each once.
        var replay = zoo.changes(after: change.version - 1).makeAsyncIterator()
        #expect(try await replay.next()?.version == change.version)
        #expect(try await replay.next()?.version == deletion.version)
        let future = await #expect(throws: KuraError.self) {
            var ahead = zoo.changes(after: deletion.version + 100).makeAsyncIterator()
            _ = try await ahead.next()
        }
        #expect(future?.code == .transfer(.usage))
        #expect(server.stop() == 0)
    }
}
