import Foundation
import Kura
import KuraTestSupport
import Testing

/// Running an update import or copy again with the same input changes nothing: not the objects
/// (the dogs of the samples, which have no primary key, are not added again), not the counts, and
/// not a byte of the realm's file, nor of any other file beside it.
@Suite struct RerunTests {
    let folder: URL
    let kura = Fixtures.executable("kura")
    let people = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
    /// Whole-realm documents, dogs and clubs without a primary key among them.
    let dogs = Fixtures.packageRoot.appendingPathComponent("Samples/dogs.yaml").path
    let friends = Fixtures.packageRoot.appendingPathComponent("Samples/friends.json").path

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        try run(["init", "samples.realm", "--schema", Fixtures.samplesSchemaPath])
        try run(["import", "samples.realm", people, "--type", "Person"])
        try run(["import", "samples.realm", dogs, friends])
    }

    /// Runs `kura` in the test's folder; fails the test unless it succeeds.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let result = try Fixtures.run(kura, arguments, currentDirectory: folder)
        #expect(result.status == 0, "kura \(arguments.joined(separator: " ")): \(result.stderr)")
        return result.stdout
    }

    /// Every file in the folder with the SHA-256 of its bytes.
    func files() throws -> [String: String] {
        try Fixtures.fileDigests(in: folder)
    }

    func export(_ realm: String) throws -> String {
        try run(["export", realm, "--format", "jsonl"])
    }

    /// The finding: `copy --type Person --where … --mode update` twice left copies of the people's
    /// dogs each time. Replace too: the documents give every property.
    @Test(arguments: ["update", "modified", "replace"])
    func anUpdateCopyRunTwiceChangesNothing(mode: String) throws {
        let copy = ["copy", "samples.realm", "copy.realm", "--type", "Person", "--where", "id <= 2", "--mode", mode]
        try run(copy)
        let first = try export("copy.realm")
        let before = try files()
        #expect(try run(copy) == """
            Address: 0 inserted, 0 updated, 1 unchanged
            Dog: 0 inserted, 0 updated, 2 unchanged
            DogToy: 0 inserted, 0 updated, 1 unchanged
            Person: 0 inserted, 0 updated, 2 unchanged

            """)
        #expect(try files() == before)
        #expect(try export("copy.realm") == first)
        #expect(try Realm(path: folder.appendingPathComponent("copy.realm").path).count("Dog") == 2)
    }

    @Test(arguments: ["update", "modified"])
    func anUpdateImportRunTwiceChangesNothing(mode: String) throws {
        let first = try export("samples.realm")
        let before = try files()
        #expect(try run(["import", "samples.realm", people, "--type", "Person", "--mode", mode]) == """
            Address: 0 inserted, 0 updated, 2 unchanged
            Dog: 0 inserted, 0 updated, 2 unchanged
            DogToy: 0 inserted, 0 updated, 1 unchanged
            Person: 0 inserted, 0 updated, 3 unchanged
            3 documents, 741 bytes

            """)
        #expect(try files() == before)
        #expect(try export("samples.realm") == first)
    }

    /// Every command with nothing to do leaves every file as it was: no change counter, schema
    /// cookie or log row written, no `-wal` or `-shm` file left behind. The documents without a
    /// primary key at the top (the samples' clubs and a dog) find the objects they made.
    @Test func commandsWithNothingToChangeLeaveEveryFileAsItWas() throws {
        try run(["copy", "samples.realm", "copy.realm"])
        try run(["export", "samples.realm", "--output", "export.json"])
        let commands: [[String]] = [
            ["init", "samples.realm", "--schema", Fixtures.samplesSchemaPath],
            ["migrate", "samples.realm", "--schema", Fixtures.samplesSchemaPath],
            ["import", "samples.realm", people, "--type", "Person", "--skip-existing"],
            ["import", "samples.realm", people, "--type", "Person", "--mode", "modified"],
            ["import", "samples.realm", dogs, friends, "--skip-existing"],
            ["import", "samples.realm", dogs, friends, "--mode", "update"],
            ["import", "samples.realm", "export.json", "--mode", "replace"],
            ["copy", "samples.realm", "copy.realm", "--skip-existing"],
            ["copy", "samples.realm", "copy.realm", "--mode", "modified"],
            ["copy", "samples.realm", "copy.realm", "--type", "Person", "--mode", "update"],
            ["copy", "samples.realm", "copy.realm", "--type", "DogClub", "--mode", "replace"],
            ["delete", "samples.realm", "--type", "Dog", "--where", "age > 100"],
            ["export", "samples.realm", "--output", "export.json"],
            ["check", "samples.realm"],
        ]
        for command in commands {
            let before = try files()
            try run(command)
            #expect(try files() == before, "kura \(command.joined(separator: " "))")
        }
    }

    /// The library's open and close, with and without the schema the realm has.
    @Test func openingAndClosingARealmLeavesItsFileAsItWas() throws {
        let before = try files()
        let path = folder.appendingPathComponent("samples.realm").path
        do {
            let realm = try Realm(path: path)
            #expect(try realm.count("Person") == 9)
        }
        #expect(try files() == before)
        do {
            let realm = try Realm(path: path, schema: try Fixtures.samplesSchema())
            #expect(realm.openOutcome == .opened)
            try realm.write {}
        }
        #expect(try files() == before)
    }
}
