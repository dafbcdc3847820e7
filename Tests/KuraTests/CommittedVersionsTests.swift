import Foundation
@testable import Kura
import Testing

/// `Realm.committedVersions()`: the change version now, then each one commits move it to, from any
/// handle of the file, ending its observation when its reader stops.
@Suite struct CommittedVersionsTests {
    @Test func followsCommitsOfAnotherHandleAndStopsWithItsReader() async throws {
        let (realm, path) = try houndRealm()
        try realm.write { try realm.add(Hound(name: "Rex", age: 1)) }
        let start = try realm.changeVersion
        let other = try Realm(path: path)
        var seen: [Int64] = []
        for try await version in realm.committedVersions() {
            seen.append(version)
            if seen.count == 3 { break }
            // Each commit comes from a second handle, as another process's would.
            try other.write { try other.add(Hound(name: "Pup \(seen.count)", age: 2)) }
        }
        #expect(seen == [start, start + 1, start + 2])
        // The stream's end ends its observation: the file is no longer watched.
        let deadline = Date().addingTimeInterval(5)
        while ChangeNotifier.isWatching(realm), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!ChangeNotifier.isWatching(realm))
    }

    @Test func aReaderThatFallsBehindGetsTheNewestVersion() async throws {
        let (realm, _) = try houndRealm()
        var versions = realm.committedVersions().makeAsyncIterator()
        #expect(try await versions.next() == 0)
        // Commits far enough apart for the notifier to see each one while nobody reads.
        for age in 1...3 {
            try realm.write { try realm.add(Hound(name: "Pup \(age)", age: age)) }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(try await versions.next() == 3)
    }
}
