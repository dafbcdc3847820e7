import Foundation
import Kura
import KuraTestSupport
import Testing

/// Examples/ActorExample: a realm kept by an actor, written by 8 tasks with `asyncWrite` and read
/// from a task outside the actor.
@Suite struct ActorExampleTests {
    @Test func theKennelActorStoresEveryDogAndReadsThemBack() throws {
        let folder = try Fixtures.temporaryDirectory()
        let run = try Fixtures.run(Fixtures.executable("ActorExample"), [folder.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout == """
            10
            ["Dog 7", "Dog 8", "Rex"]
            Rex

            """)
        let realm = try Realm(path: folder.appendingPathComponent("kennel.realm").path)
        #expect(try realm.count("Dog") == 10)
        #expect(try Fixtures.problems(realm) == [])
    }
}
