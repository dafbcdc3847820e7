import Foundation
import KuraTestSupport
import Testing

@testable import Kura

/// Installing and reading a PostgreSQL realm's layout through `PostgresSchemaStore`, against the
/// test server: the tables, column types and indexes made, the stored schema and type ids, the
/// layout version and the change log.
@Suite struct PostgresSchemaStoreTests {
    typealias Fixture = PostgresWriteFixture

    @Test func aSchemaWithNothingInItIsNoRealmAndHoldsNoData() throws {
        guard PostgresTestServer.isReady() else { return }
        let location = try PostgresLocation(url: PostgresTestServer.freshRealmURL("empty"))
        let session = try PostgresSession(location)
        let store = PostgresSchemaStore(session: session)
        #expect(try !store.isInstalled())
        #expect(try !store.holdsData())
        try session.execute("CREATE SCHEMA \(location.quotedSchema)")
        #expect(try !store.holdsData())
        try session.execute("CREATE SEQUENCE other")
        #expect(try store.holdsData())
        #expect(try !store.isInstalled())
    }

    @Test func installMakesEveryTableColumnAndIndex() throws {
        guard PostgresTestServer.isReady() else { return }
        let realm = try Fixture(label: "install")
        let store = PostgresSchemaStore(session: realm.session)
        #expect(try store.isInstalled())
        #expect(try store.holdsData())
        #expect(try store.storedSchema() == realm.schema)
        #expect(realm.catalog.typeIds == ["Item": 1, "Person": 2, "Plain": 3, "Spot": 4])
        #expect(realm.catalog.limits.engine == "PostgreSQL")
        #expect(realm.catalog.limits.columns == 1600)
        #expect(try store.layoutVersion() == 1)
        #expect(try !store.lacksIndexes(for: realm.schema))
        let meta = try realm.rows(##"SELECT "key", "value" FROM "#meta" WHERE "key" <> 'schema' ORDER BY "key""##)
        #expect(meta == [
            [.text("formatVersion"), .text("1")], [.text("lastMixedContainer"), .text("0")], [.text("layoutVersion"), .text("1")],
            [.text("schemaVersion"), .text("3")],
        ])
        let columns = try realm.rows("""
            SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '-')
                || ' ' || is_identity
            FROM information_schema.columns WHERE table_schema = current_schema()
            AND table_name IN ('Item', 'Item.things', 'Item.scores', 'Item.tags', '#mixed') ORDER BY table_name, ordinal_position
            """).compactMap { row -> String? in if case .text(let text)? = row.first { text } else { nil } }
        #expect(columns == [
            "#mixed.#container bigint NO - NO", "#mixed.#pos bigint YES - NO", "#mixed.#key bytea YES - NO",
            "#mixed.#type bigint NO - NO", "#mixed.#value bytea YES - NO",
            "Item.#id bigint NO - NO", "Item.code bytea YES - NO", "Item.count bigint YES - NO", "Item.flag bigint YES - NO",
            "Item.ratio double precision YES - NO", "Item.small double precision YES - NO", "Item.price bytea YES - NO",
            "Item.when bigint YES - NO", "Item.blob bytea YES - NO", "Item.oid bytea YES - NO", "Item.uid bytea YES - NO",
            "Item.note bytea YES - NO", "Item.any bytea YES - NO", "Item.any#type bigint NO 0 NO", "Item.owner bigint YES - NO",
            "Item.spot bigint YES - NO",
            "Item.scores.#row bigint NO - YES", "Item.scores.#owner bigint NO - NO", "Item.scores.#key bytea NO - NO",
            "Item.scores.#value double precision YES - NO",
            "Item.tags.#row bigint NO - YES", "Item.tags.#owner bigint NO - NO", "Item.tags.#pos bigint NO - NO",
            "Item.tags.#value bytea YES - NO",
            "Item.things.#row bigint NO - YES", "Item.things.#owner bigint NO - NO", "Item.things.#value bytea YES - NO",
            "Item.things.#type bigint NO 0 NO",
        ])
        let indexes = try realm.rows("""
            SELECT indexname || ' ' || regexp_replace(indexdef, '^.* USING ', '') FROM pg_indexes
            WHERE schemaname = current_schema() AND indexname LIKE '%#%' AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_key'
            ORDER BY indexname
            """).compactMap { row -> String? in if case .text(let text)? = row.first { text } else { nil } }
        #expect(indexes == [
            ##"#mixed#container btree ("#container", "#pos", "#key")"##,
            ##"#mixed#link btree ("#type", "#value") WHERE ("#type" >= 64)"##,
            ##"Item.any#link btree ("any#type", "any") WHERE ("any#type" >= 64)"##,
            ##"Item.bag#link btree ("#type", "#value") WHERE ("#type" >= 64)"##,
            ##"Item.code#index btree (code)"##,
            ##"Item.count#index btree (count)"##,
            ##"Item.extras#link btree ("#type", "#value") WHERE ("#type" >= 64)"##,
            ##"Item.friends#value btree ("#value")"##,
            ##"Item.owner#index btree (owner)"##,
            ##"Item.seen#owner btree ("#owner", "#row")"##,
            ##"Item.spot#index btree (spot)"##,
            ##"Item.things#link btree ("#type", "#value") WHERE ("#type" >= 64)"##,
            ##"Item.things#owner btree ("#owner", "#row")"##,
            ##"Person.byName#value btree ("#value")"##,
            ##"Person.id#index btree (id)"##,
            ##"Person.pals#owner btree ("#owner", "#row")"##,
            ##"Person.pals#value btree ("#value")"##,
            ##"Plain.spots#value btree ("#value")"##,
            ##"Spot.near#value btree ("#value")"##,
        ])
        #expect(try realm.rows(##"SELECT indexdef LIKE 'CREATE UNIQUE%' FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'Item.code#index'"##) == [[.integer(1)]])
    }

    @Test func theChangeLogRecordsSchemaChanges() throws {
        guard PostgresTestServer.isReady() else { return }
        let realm = try Fixture(label: "changelog")
        let store = PostgresSchemaStore(session: realm.session)
        #expect(try store.hasChangeLog())
        try store.recordSchemaChange()
        try store.recordSchemaChange()
        #expect(try realm.rows(##"SELECT "version", "schemaChanged" FROM "#changes" ORDER BY "version""##) == [
            [.integer(1), .integer(1)], [.integer(2), .integer(1)],
        ])
        try realm.session.execute(##"DROP TABLE "#changes", "#changed""##)
        #expect(try !store.hasChangeLog())
        try store.recordSchemaChange()
        #expect(try store.hasChangeLog())
        #expect(try store.layoutVersion() == 2)
        #expect(try realm.rows(##"SELECT "version" FROM "#changes""##) == [[.integer(1)]])
    }

    @Test func namesPostgreSQLWouldCutToTheSameBytesAreRefused() throws {
        let long = String(repeating: "a", count: 63)
        let mixed = try Schema(yaml: "types:\n  T:\n    properties:\n      \(long): mixed\n")
        let error = #expect(throws: KuraError.self) { try PostgresNames.check(mixed) }
        #expect(error?.code == .schema(.duplicateName))
        let tables = try Schema(yaml: "types:\n  T\(long.prefix(60)):\n    properties:\n      b\(long.prefix(1)): list<int>\n      b\(long.prefix(2)): list<int>\n")
        #expect(throws: KuraError.self) { try PostgresNames.check(tables) }
        #expect(PostgresNames.truncated(String(repeating: "é", count: 40)) == String(repeating: "é", count: 31))
        try PostgresNames.check(try Schema(yaml: PostgresWriteFixture.schemaText))
    }
}
