import Foundation
import Kura
import KuraTestSupport
import Testing

/// What migrating a PostgreSQL realm does to its tables, beyond the behaviour both engines share
/// (`MigrationTests`): names at PostgreSQL's limit set aside and made anew, texts held as bytes,
/// set order, generated keys and counters, and the layout version writers follow.
@Suite struct PostgresMigrationTests {
    typealias M = MigrationFixtures

    /// A type name of 60 bytes: with any suffix its table's name would pass the 63 bytes PostgreSQL keeps.
    static let longName = "Notebook" + String(repeating: "x", count: 52)

    static func schema(_ version: Int, _ properties: String) -> String {
        """
        schemaVersion: \(version)
        types:
          \(longName):
            properties:
        \(properties)
        """
    }

    @Test func aTypeAtTheNameLimitIsRebuiltWithItsTextsAndATextFill() throws {
        guard PostgresTestServer.isReady() else { return }
        let url = PostgresTestServer.freshRealmURL("pgmigrate")
        let schemaName = try #require(M.postgresSchema(url))
        let v1 = Self.schema(1, """
                  title: string
            """)
        let realm = try Realm(path: url, schema: try Schema(yaml: v1))
        try realm.write {
            try realm.create(Self.longName, value: ["title": "zero\u{0}byte"])
            try realm.create(Self.longName, value: ["title": "plain"])
        }
        let layoutBefore = try PostgresTestServer.psql(##"SELECT "value" FROM "\##(schemaName)"."#meta" WHERE "key" = 'layoutVersion'"##)
        // A required note filled with a text makes the table anew; the texts (one
        // holding U+0000) are carried over as bytes.
        let v2 = Self.schema(2, """
                  title: string
                  note: { type: string, default: "naïve 🐕" }
            """)
        try M.migrate(url, to: v2)
        let migrated = try Realm(path: url)
        let objects = try M.values(Self.longName, in: migrated)
        #expect(objects.map { $0["title"] } == ["zero\u{0}byte", "plain"])
        #expect(objects.map { $0["note"] } == ["naïve 🐕", "naïve 🐕"])
        let relations = try PostgresTestServer.psql("""
            SELECT string_agg(c.relname, ',') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = '\(schemaName)' AND c.relname LIKE '#old%'
            """)
        #expect(relations.isEmpty)
        let layoutAfter = try PostgresTestServer.psql(##"SELECT "value" FROM "\##(schemaName)"."#meta" WHERE "key" = 'layoutVersion'"##)
        #expect((Int(layoutAfter) ?? 0) > (Int(layoutBefore) ?? 0))
        // Writers follow the new layout: a write after the migration is recorded and read back.
        try migrated.write { try migrated.objects(Self.longName).first?.setValue("changed", forKey: "title") }
        #expect(try Realm(path: url).objects(Self.longName).first?["title"] == "changed")
    }

    @Test func anAutoIncrementKeyNumbersExistingObjectsAndItsCounterMovesPast() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, realm) = try M.realm(M.diaryV1, on: .postgres)
        try M.fillDiary(realm, count: 5)
        let keyed = """
            schemaVersion: 2
            types:
              Diary:
                primaryKey: number
                properties:
                  number: { type: int, autoIncrement: true }
                  text: string
                  date: date
            """
        let plan = try Realm.migrationPlan(for: Realm.Configuration(path: url, schema: try Schema(yaml: keyed)))
        #expect(plan.problems.isEmpty)
        try M.migrate(url, to: keyed)
        let migrated = try Realm(path: url)
        #expect(try M.values("Diary", in: migrated).map { $0["number"] } == [1, 2, 3, 4, 5])
        let added = try migrated.write { try migrated.create("Diary", value: ["text": "new", "date": .date(M.firstDate)]) }
        #expect(try added["number"] == 6)
        expectKuraError(.store) {
            try migrated.write { try migrated.create("Diary", value: ["number": 3, "text": "again", "date": .date(M.firstDate)]) }
        }
    }
}
