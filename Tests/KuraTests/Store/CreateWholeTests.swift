import Foundation
import Kura
import KuraTestSupport
import Testing

/// `Realm.createWhole(at:schema:_:)`: a new realm appears at its path only once it is filled, so a
/// process killed while making it (as `kura copy` into a new realm) leaves no half-made file there.
@Suite struct CreateWholeTests {
    let folder: URL
    let path: String
    let schema: Schema

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        path = folder.appendingPathComponent("new.realm").path
        schema = try Fixtures.samplesSchema()
    }

    /// Every file in the folder, hidden ones included.
    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func theRealmAppearsOnlyOnceFilledAndClosed() throws {
        let created = try Realm.createWhole(at: path, schema: schema) { realm in
            #expect(!FileManager.default.fileExists(atPath: path), "the realm showed before it was filled")
            try realm.write {
                for index in 1...50 { try realm.create("Person", value: ["name": .string("Person \(index)")]) }
            }
            return try realm.count("Person")
        }
        #expect(created == 50)
        // The WAL was folded into the file and the building files are gone.
        #expect(try files() == ["new.realm"])
        #expect(try RealmChecker(path: path).check().messages == [])
        #expect(try Realm(path: path).count("Person") == 50)
    }

    @Test func aFillThatThrowsLeavesNothing() throws {
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try Realm.createWhole(at: path, schema: schema) { realm in
                try realm.write { try realm.create("Person", value: ["name": "Ann"]) }
                throw Refused()
            }
        }
        #expect(try files() == [])
    }

    @Test func filesLeftByAKilledCreationAreRemovedByTheNext() throws {
        // A process id above Linux's limit names no process; the parent of the tests is alive and
        // may still be building its realm.
        let gone = ".new.realm.kura-new-2147483646"
        let live = ".new.realm.kura-new-\(getppid())"
        let otherPath = ".other.realm.kura-new-2147483646"
        for name in [gone, gone + "-wal", live, otherPath] {
            try "left by a kill".write(to: folder.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        try Realm.createWhole(at: path, schema: schema) { _ in }
        #expect(try files() == [live, otherPath, "new.realm"].sorted())
    }

    @Test func aFileThatAppearsMeanwhileIsKept() throws {
        #expect(throws: KuraError.store(.openFailed, "cannot create realm '\(path)': a file appeared there meanwhile")) {
            try Realm.createWhole(at: path, schema: schema) { _ in
                try "not a realm".write(toFile: path, atomically: false, encoding: .utf8)
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a realm")
        #expect(try files() == ["new.realm"])
    }
}
