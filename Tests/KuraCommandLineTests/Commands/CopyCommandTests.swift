import Foundation
import Kura
import KuraTestSupport
import Testing

/// `kura copy` run as a program: whole realms, link closures, cycles, schema checks, modes.
@Suite struct CopyCommandTests {
    let folder: URL
    let kura = Fixtures.executable("kura")
    let source: String
    let schema: String

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        (source, schema) = try GraphFixture.makeRealm(in: folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The whole-realm export of a realm, the yardstick of "equal realms".
    func export(_ realm: String) throws -> String {
        let result = try Fixtures.run(kura, ["export", realm, "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func aWholeRealmCopyEqualsItsSource() throws {
        let result = try Fixtures.run(kura, ["copy", source, path("copy.realm")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            \(path("copy.realm")): created with the source's schema
            Node: 106 inserted, 0 updated, 0 unchanged
            Owner: 3 inserted, 0 updated, 0 unchanged
            Spot: 2 inserted, 0 updated, 0 unchanged

            """)
        #expect(try export(path("copy.realm")) == export(source))
        #expect(try Fixtures.run(kura, ["check", path("copy.realm")]).status == 0)
    }

    /// A whole copy into a new file is written in one go (`Realm.copyWhole`): it is a WAL realm like
    /// any other, keeps the counters (a deleted key is not handed out again) and leaves no file behind.
    @Test func aWholeCopyIntoANewFileKeepsCountersAndIsInWALMode() throws {
        do {
            let realm = try Realm(path: source)
            try realm.write {
                guard let gone = try realm.object(ofType: "Owner", forPrimaryKey: .int(3)) else { throw CancellationError() }
                try realm.delete(gone)
            }
        }
        let result = try Fixtures.run(kura, ["copy", source, path("new.realm")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(path("new.realm")): created with the source's schema\n"))
        #expect(result.stdout.contains("Owner: 2 inserted, 0 updated, 0 unchanged\n"))
        let header = try #require(FileManager.default.contents(atPath: path("new.realm")))
        #expect(header[18] == 2 && header[19] == 2)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("kura-new") }
        #expect(left.isEmpty)
        #expect(try export(path("new.realm")) == export(source))
        let copy = try Realm(path: path("new.realm"))
        let next = try copy.write { try copy.create("Owner", value: .map(["name": .string("New")])) }
        #expect(try next["id"] == .int(4))
    }

    @Test func aTypeCopyBringsExactlyItsLinkClosure() throws {
        let result = try Fixtures.run(kura, ["copy", source, path("owners.realm"), "--type", "Owner"])
        #expect(result.status == 0, "\(result.stderr)")
        let copy = try Realm(path: path("owners.realm"))
        #expect(try copy.count("Owner") == 3)
        // The owners' nodes: the shared one (also their favorite) and the self-loop; nothing else.
        let names = try copy.objects("Node").map { try $0["name"] }
        #expect(Set(names) == [.string("s"), .string("self")])
        guard let ann = try copy.object(ofType: "Owner", forPrimaryKey: .int(1)),
            let bo = try copy.object(ofType: "Owner", forPrimaryKey: .int(2))
        else {
            Issue.record("owners missing")
            return
        }
        #expect(try ann.objects("nodes").first?.ref == bo.objects("nodes").first?.ref)
        let loop = try ann.objects("nodes")[1]
        #expect(try loop.link("next")?.ref == loop.ref)
        #expect(try Fixtures.problems(copy) == [])
    }

    @Test func aCopyWithWhereBringsExactlyTheLinkClosure() throws {
        let result = try Fixtures.run(kura, ["copy", source, path("ann.realm"), "--type", "Owner", "--where", "name == 'Ann'"])
        #expect(result.status == 0, "\(result.stderr)")
        let copy = try Realm(path: path("ann.realm"))
        // Ann, her rival Bo (by key) and back, and their two nodes: nothing else.
        #expect(try copy.objects("Owner").map { try $0["name"] } == [.string("Ann"), .string("Bo")])
        #expect(try Set(copy.objects("Node").map { try $0["name"] }) == [.string("s"), .string("self")])
        let chain = try Fixtures.run(kura, ["copy", source, path("chain.realm"), "--type", "Node", "--where", "name == 'chain90'"])
        #expect(chain.status == 0, "\(chain.stderr)")
        #expect(try Realm(path: path("chain.realm")).count("Node") == 10)
        #expect(try Fixtures.problems(copy) == [])
    }

    @Test func aCycleWithoutKeysCopiesAndStaysACycle() throws {
        #expect(try Fixtures.run(kura, ["copy", source, path("nodes.realm"), "--type", "Node"]).status == 0)
        let copy = try Realm(path: path("nodes.realm"))
        let cycleA = try copy.objects("Node").first { try $0["name"] == .string("cycleA") }
        #expect(cycleA != nil)
        #expect(try cycleA?.link("next")?.link("next")?.ref == cycleA?.ref)
        // Every node once: the copy holds as many as the source.
        #expect(try copy.count("Node") == Realm(path: source).count("Node"))
        #expect(try Fixtures.problems(copy) == [])
    }

    @Test func aDestinationMissingAPropertyFailsBeforeAnythingIsWritten() throws {
        let narrow = try String(contentsOfFile: schema, encoding: .utf8)
            .replacingOccurrences(of: "      price: decimal?\n", with: "")
            .replacingOccurrences(of: "      seen: set<int>\n", with: "      seen: set<int>\n      badge: string\n")
        let narrowPath = path("narrow.yaml")
        try narrow.write(toFile: narrowPath, atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["init", path("narrow.realm"), "--schema", narrowPath]).status == 0)
        let result = try Fixtures.run(kura, ["copy", source, path("narrow.realm")])
        #expect(result.status == 65)
        #expect(result.stderr == """
            kura: error: the destination schema cannot hold the copy: Owner.badge (string): required in the destination, \
            absent in the source; Node.price (decimal?): the destination has no such property

            """)
        let destination = try Realm(path: path("narrow.realm"))
        #expect(try destination.count("Owner") == 0 && destination.count("Node") == 0)
    }

    @Test func modesDecideWhatAnExistingKeyDoes() throws {
        #expect(try Fixtures.run(kura, ["copy", source, path("twice.realm"), "--type", "Owner"]).status == 0)
        let again = try Fixtures.run(kura, ["copy", source, path("twice.realm"), "--type", "Owner"])
        #expect(again.status == 65)
        #expect(again.stderr == "kura: error: source object Owner#1: an object of type Owner with primary key 1 already exists; give --skip-existing to leave the objects already there, or --mode update to update them\n")
        #expect(try Realm(path: path("twice.realm")).count("Node") == 2)
        let modified = try Fixtures.run(kura, ["copy", source, path("twice.realm"), "--type", "Owner", "--mode", "modified"])
        #expect(modified.status == 0, "\(modified.stderr)")
        // The nodes have no key: each updates the node its owner's list holds at its index, which
        // already holds it, so nothing changes.
        #expect(modified.stdout == "Node: 0 inserted, 0 updated, 2 unchanged\nOwner: 0 inserted, 0 updated, 3 unchanged\n")
        #expect(try Realm(path: path("twice.realm")).count("Node") == 2)
    }

    /// A replace copy drops the embedded objects the source no longer has, and counts them.
    @Test func aReplaceCopyCountsTheEmbeddedObjectsItDeletes() throws {
        let people = path("people.realm")
        let samples = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        #expect(try Fixtures.run(kura, ["init", people, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        #expect(try Fixtures.run(kura, ["import", people, samples, "--type", "Person"]).status == 0)
        #expect(try Fixtures.run(kura, ["copy", people, path("copy.realm")]).status == 0)
        let ann = path("ann.json")
        try Data(#"[{"id": 1, "name": "Ann"}]"#.utf8).write(to: URL(fileURLWithPath: ann))
        #expect(try Fixtures.run(kura, ["import", people, ann, "--type", "Person", "--mode", "replace"]).status == 0)
        let result = try Fixtures.run(kura, ["copy", people, path("copy.realm"), "--type", "Person", "--mode", "replace"])
        #expect(result.status == 0, "\(result.stderr)")
        // Only Ann changed; the dogs, without a key, update the dogs their lists hold, as they are.
        #expect(result.stdout == """
            Address: 0 inserted, 0 updated, 1 unchanged, 1 deleted
            Dog: 0 inserted, 0 updated, 2 unchanged
            DogToy: 0 inserted, 0 updated, 1 unchanged
            Person: 0 inserted, 1 updated, 2 unchanged

            """)
        #expect(try Realm(path: path("copy.realm")).count("Address") == 1)
        #expect(try Fixtures.run(kura, ["check", path("copy.realm")]).status == 0)
    }

    /// A mixed property may link to any type, but a copy checks only the types that stored mixed
    /// values link to: dogs copy into a realm without persons until a dog's companion is a person.
    @Test func aOneTypeCopyNeedsOnlyTheTypesItsMixedValuesLinkTo() throws {
        let people = path("people.realm")
        let samples = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        #expect(try Fixtures.run(kura, ["init", people, "--schema", Fixtures.samplesSchemaPath]).status == 0)
        #expect(try Fixtures.run(kura, ["import", people, samples, "--type", "Person"]).status == 0)
        let dogsOnly = path("dogs.yaml")
        try """
            schemaVersion: 1
            types:
              DogToy:
                properties:
                  name: string
              Dog:
                properties:
                  name: string
                  age: int
                  color: string?
                  currentCity: string?
                  citiesVisited: set<string>
                  favoriteParksByCity: map<string>
                  companion: mixed
                  favoriteToy: DogToy?

            """.write(toFile: dogsOnly, atomically: true, encoding: .utf8)
        for name in ["dogs.realm", "dogs2.realm"] {
            #expect(try Fixtures.run(kura, ["init", path(name), "--schema", dogsOnly]).status == 0)
        }
        let copied = try Fixtures.run(kura, ["copy", people, path("dogs.realm"), "--type", "Dog"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout == "Dog: 2 inserted, 0 updated, 0 unchanged\nDogToy: 1 inserted, 0 updated, 0 unchanged\n")

        let friend = path("friend.json")
        try #"[{"name": "Laika", "age": 2, "companion": {"$type": "Person", "$key": 1}}]"#
            .write(toFile: friend, atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["import", people, friend, "--type", "Dog"]).status == 0)
        let refused = try Fixtures.run(kura, ["copy", people, path("dogs2.realm"), "--type", "Dog"])
        #expect(refused.status == 65)
        #expect(refused.stderr == """
            kura: error: the destination schema cannot hold the copy: the destination has no type 'Person'; \
            the destination has no type 'Address'

            """)
        #expect(try Realm(path: path("dogs2.realm")).count("Dog") == 0)
    }

    @Test func usageErrors() throws {
        let same = try Fixtures.run(kura, ["copy", source, source])
        #expect(same.status == 64)
        #expect(same.stderr == "kura: error: the source and the destination are the same realm\n")
        let missing = try Fixtures.run(kura, ["copy", path("none.realm"), path("x.realm")])
        #expect(missing.status == 66)
        #expect(!FileManager.default.fileExists(atPath: path("x.realm")))
        #expect(try Fixtures.run(kura, ["copy", source, path("y.realm"), "--type", "Cat"]).status == 64)
    }
}
