import Foundation
import Kura
import KuraTestSupport
import Testing

/// What only a PostgreSQL realm does: live in a schema of its own, name itself by its URL, make
/// writers from any connection take turns, and say which realm failed when its server does.
@Suite struct PostgresRealmTests {
    static let schema = """
        types:
          Ticket:
            primaryKey: id
            properties:
              id: { type: int, autoIncrement: true }
              title: string
        """

    @Test func aRealmLivesInItsSchemaAndReopensByItsURL() throws {
        guard PostgresTestServer.isReady() else { return }
        let url = PostgresTestServer.freshRealmURL("tickets")
        do {
            let realm = try Realm(path: url, schema: try Schema(yaml: Self.schema))
            #expect(realm.openOutcome == .created)
            try realm.write { _ = try realm.create("Ticket", value: ["title": "first"]) }
        }
        let schema = try #require(url.split(separator: "=").last.map(String.init))
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM \"\(schema)\".\"Ticket\"") == "1")
        let reopened = try Realm(path: url)
        #expect(reopened.openOutcome == .opened)
        #expect(try reopened.objects("Ticket").map { try $0["title"] } == ["first"])
        #expect(Realm.Configuration(path: url).name == schema)
        #expect(!Realm.Configuration(path: url).isFile)
        #expect(try Realm.holdsRealm(at: url))
        #expect(try !Realm.holdsRealm(at: PostgresTestServer.freshRealmURL("empty")))
    }

    @Test func aSchemaWithoutARealmIsNotOneUnlessASchemaIsGiven() throws {
        guard PostgresTestServer.isReady() else { return }
        let url = PostgresTestServer.freshRealmURL("nothing")
        let schema = String(url.split(separator: "=").last ?? "")
        #expect(throws: KuraError.store(.notARealm, "'\(url)' is not a realm: its schema '\(schema)' holds no Kura tables")) {
            try Realm(path: url)
        }
        // Nothing was created by the refused open.
        #expect(try PostgresTestServer.psql("SELECT count(*) FROM pg_namespace WHERE nspname = '\(schema)'") == "0")
    }

    @Test func aWriterGivesUpOnlyOnAHolderThatDoesNothing() throws {
        guard PostgresTestServer.isReady() else { return }
        let url = PostgresTestServer.freshRealmURL("locks")
        let holder = try Realm(path: url, schema: try Schema(yaml: Self.schema))
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? holder.write {
                _ = try holder.create("Ticket", value: ["title": "held"])
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        let waiter = try Realm(configuration: Realm.Configuration(path: url, busyTimeout: 1))
        let started = Date()
        #expect(throws: KuraError.store(
            .database,
            "cannot write realm '\(url)': another connection holds its write lock and has done nothing for 1 seconds")) {
            try waiter.write { _ = try waiter.create("Ticket", value: ["title": "waiting"]) }
        }
        #expect(Date().timeIntervalSince(started) >= 1)
        release.signal()
        // Once the holder commits, the waiter writes, and the keys stay distinct.
        try waiter.write { _ = try waiter.create("Ticket", value: ["title": "after"]) }
        let keys = try waiter.objects("Ticket").map { try $0["id"] }
        #expect(keys == [1, 2])
    }
}
