import Foundation
@testable import Kura
import KuraTestSupport
import Testing

/// `Realm.committedVersions()`: the change version now, then each one commits move it to, from any
/// handle of the realm, ending its observation when its reader stops, on every engine.
@Suite struct CommittedVersionsTests {
    static let schema = """
        types:
          Hound:
            properties:
              name: string
              age: int
        """

    /// A realm of hounds, and its path.
    func houndRealm(_ engine: RealmEngine) throws -> (Realm, String) {
        let path = try engine.freshRealm("hounds")
        return (try Realm(path: path, schema: try Schema(yaml: Self.schema)), path)
    }

    func addHound(_ name: String, age: Int, to realm: Realm) throws {
        try realm.write { _ = try realm.create("Hound", value: ["name": .string(name), "age": .int(Int64(age))]) }
    }

    @Test(arguments: RealmEngine.tested) func followsCommitsOfAnotherHandleAndStopsWithItsReader(on engine: RealmEngine) async throws {
        let (realm, path) = try houndRealm(engine)
        try addHound("Rex", age: 1, to: realm)
        let start = try realm.changeVersion
        let other = try Realm(path: path)
        var seen: [Int64] = []
        for try await version in realm.committedVersions() {
            seen.append(version)
            if seen.count == 3 { break }
            // Each commit comes from a second handle, as another process's would.
            try addHound("Pup \(seen.count)", age: 2, to: other)
        }
        #expect(seen == [start, start + 1, start + 2])
        // The stream's end ends its observation: the file is no longer watched.
        let deadline = Date().addingTimeInterval(5)
        while ChangeNotifier.isWatching(realm), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!ChangeNotifier.isWatching(realm))
    }

    @Test(arguments: RealmEngine.tested) func aReaderThatFallsBehindGetsTheNewestVersion(on engine: RealmEngine) async throws {
        let (realm, _) = try houndRealm(engine)
        var versions = realm.committedVersions().makeAsyncIterator()
        #expect(try await versions.next() == 0)
        // Commits far enough apart for the notifier to see each one while nobody reads.
        for age in 1...3 {
            try addHound("Pup \(age)", age: age, to: realm)
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(try await versions.next() == 3)
    }
}
