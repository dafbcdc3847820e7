import Foundation
import KuraTestSupport
import Testing

@testable import Kura

/// `RealmChecker` on PostgreSQL realms, against the test server: healthy realms are clean; each
/// invariant, broken with raw SQL through `psql` on the graph realm (GraphFixture, ids as in
/// CheckInvariantTests), gives the findings SQLite gives for it, and those PostgreSQL's layout
/// adds (texts whose bytes are not UTF-8, invalid indexes, primary keys); `kura check URL` works.
@Suite(.serialized) struct PostgresCheckTests {
    /// A new graph realm on the test server: its URL and schema.
    func graphRealm() throws -> (url: String, schema: String) {
        let url = PostgresTestServer.freshRealmURL("check")
        let realm = try Realm(path: url, schema: try Schema(yaml: GraphFixture.schema))
        _ = try DocumentImporter(realm: realm).run(JSONReader(data: Data(GraphFixture.documents.utf8), file: "graph.json"))
        return (url, try PostgresLocation(url: url).schema)
    }

    /// Runs `sql` in the realm's schema through `psql`, as another program would.
    func breakRealm(_ schema: String, _ sql: String) throws {
        try PostgresTestServer.psql("SET search_path TO \"\(schema)\"; \(sql)")
    }

    func messages(_ url: String, listed: Int = 20) throws -> [String] {
        try RealmChecker(path: url, listedPerCheck: listed).check().messages
    }

    @Test func aRealmWithEveryPropertyKindIsClean() throws {
        guard PostgresTestServer.isReady() else { return }
        let url = PostgresTestServer.freshRealmURL("kinds")
        let realm = try Realm(path: url, schema: try Schema(yaml: PropertyKindsTests.schemaText))
        try realm.write { try realm.create("Everything", value: PropertyKindsTests().everything()) }
        let report = try RealmChecker(path: url).check()
        #expect(report.messages == [])
        #expect(report.objectCount == 3)
        #expect(report.description == "\(url): ok (3 objects in 2 types, schema version 3)")
    }

    @Test func theGraphIsHealthyToBeginWith() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, _) = try graphRealm()
        let report = try RealmChecker(path: url).check()
        #expect(report.messages == [])
        #expect(report.description == "\(url): ok (111 objects in 3 types, schema version 1)")
    }

    @Test func danglingLinksTypedAndMixed() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, schema) = try graphRealm()
        try breakRealm(schema, """
            UPDATE "Node" SET "next" = 999 WHERE "name" = 'self';
            UPDATE "Node.peers" SET "#value" = 998 WHERE "#owner" = 2 AND "#pos" = 1;
            UPDATE "Owner.byName" SET "#value" = 997 WHERE "#key" = 's';
            UPDATE "Owner" SET "favorite" = '999' WHERE "id" = 1;
            UPDATE "Owner" SET "favorite#type" = 64 + 50 WHERE "id" = 2;
            UPDATE "Node.extras" SET "#type" = 64 + 3 WHERE "#owner" = 3 AND "#pos" = 0;
            UPDATE "#mixed" SET "#type" = 64 + 1, "#value" = '50' WHERE "#container" = 3 AND "#pos" = 0;
            """)
        #expect(try messages(url) == [
            "Owner.favorite: object 1 links to Node 999, which does not exist",
            "Owner.favorite: object 2 links to object 1 of type id 50, which the realm does not have",
            #"Owner.byName: object 1 at key "s" links to Node 997, which does not exist"#,
            "Node.next: object 2 links to Node 999, which does not exist",
            "Node.peers: object 2 at [1] links to Node 998, which does not exist",
            "Node.extras: object 3 at [0] links to embedded Spot 4, which a mixed value cannot hold",
            "#mixed: container 3 at [0] links to Owner 50, which does not exist",
        ])
    }

    @Test func embeddedObjectsWithNoOwnerOrTwo() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, schema) = try graphRealm()
        try breakRealm(schema, """
            UPDATE "Node" SET "spot" = NULL WHERE "name" = 'lonely';
            UPDATE "Node" SET "spot" = 2 WHERE "name" = 's';
            """)
        #expect(try messages(url) == [
            "Spot: object 1 is embedded, but no object owns it",
            "Spot: object 2 is owned by 2 parents: Node.spot of object 1, Spot.near of object 1",
        ])
        try breakRealm(schema, """
            UPDATE "Node" SET "spot" = NULL WHERE "name" = 's';
            INSERT INTO "Spot.near" ("#owner", "#pos", "#value") VALUES (2, 0, 1);
            """)
        #expect(try messages(url) == [
            "Spot: object 1 is embedded in a cycle of embedded objects that no top-level object owns",
            "Spot: object 2 is embedded in a cycle of embedded objects that no top-level object owns",
        ])
    }

    @Test func aDuplicatedKeyAfterItsUniqueIndexIsDropped() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, schema) = try graphRealm()
        try breakRealm(schema, """
            DROP INDEX "Owner.id#index";
            UPDATE "Owner" SET "id" = 1 WHERE "name" = 'Bo';
            UPDATE "Owner" SET "id" = NULL WHERE "name" = 'Gone';
            """)
        #expect(try messages(url) == [
            "Owner.id: object 3 holds null where a value is required",
            #"Owner.id: the index "Owner.id#index" is missing"#,
            "Owner.id: key 1 is held by 2 objects: 1, 2",
        ])
    }

    @Test func countersBehindTheIdentifiersInUse() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, schema) = try graphRealm()
        try breakRealm(schema, """
            UPDATE "#types" SET "lastObjectId" = 2, "lastKey" = 1 WHERE "name" = 'Owner';
            UPDATE "#meta" SET "value" = '2' WHERE "key" = 'lastMixedContainer';
            """)
        #expect(try messages(url) == [
            "#meta: the container counter (lastMixedContainer) is 2, below the highest container id 3",
            "Owner: the object id counter (#types.lastObjectId) is 2, below the highest object id 3",
            "Owner.id: the autoIncrement counter (#types.lastKey) is 1, below the highest key 3",
        ])
    }

    @Test func valuesThatDoNotFitTheirTypeOrTag() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, schema) = try graphRealm()
        try breakRealm(schema, #"""
            UPDATE "Node" SET "oid" = '\x0102'::bytea, "price" = 'abc' WHERE "name" = 'lonely';
            UPDATE "Node" SET "payload#type" = 13 WHERE "name" = 's';
            UPDATE "Node" SET "name" = NULL WHERE "name" = 'cycleA';
            UPDATE "Node" SET "name" = '\xff41'::bytea WHERE "name" = 'self';
            UPDATE "Node.scores" SET "#key" = '\xff'::bytea WHERE "#owner" = 1 AND "#key" = 'x';
            UPDATE "Node.extras" SET "#value" = '\xc3'::bytea WHERE "#owner" = 3 AND "#pos" = 2;
            UPDATE "#mixed" SET "#value" = 'x1' WHERE "#container" = 3 AND "#pos" = 0;
            UPDATE "#mixed" SET "#type" = 2 WHERE "#container" = 3 AND "#pos" = 2;
            UPDATE "#mixed" SET "#value" = '\x0102'::bytea WHERE "#container" = 2 AND "#key" = 'k';
            """#)
        #expect(try messages(url) == [
            "Node.name: object 2 holds 2 bytes that are not UTF-8, which is not a valid string",
            "Node.name: object 5 holds null where a value is required",
            "Node.payload: object 1 holds null under tag 13, which no kind of value has",
            #"Node.price: object 3 holds text "abc", which is not a valid decimal"#,
            "Node.oid: object 3 holds a blob of 2 bytes, which is not a valid objectId",
            "Node.scores: object 1 has a key of 1 byte that is not UTF-8",
            "Node.extras: object 3 at [2] holds 1 byte that is not UTF-8 tagged string",
            #"#mixed: container 2 at key "k" holds a blob of 2 bytes tagged uuid"#,
            #"#mixed: container 3 at [0] holds text "x1" tagged int"#,
            #"#mixed: container 3 at [2] holds text "three" tagged int"#,
        ])
    }

    @Test func missingTablesColumnsAndMetadata() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, schema) = try graphRealm()
        try breakRealm(schema, """
            DROP TABLE "Node.tags";
            ALTER TABLE "Node" DROP COLUMN "price";
            ALTER TABLE "Node" ADD COLUMN "extra" bigint;
            ALTER TABLE "Node" ALTER COLUMN "when" TYPE double precision;
            DELETE FROM "#meta" WHERE "key" = 'formatVersion';
            UPDATE "#meta" SET "value" = '7' WHERE "key" = 'schemaVersion';
            DELETE FROM "#types" WHERE "name" = 'Spot';
            INSERT INTO "#types" ("id", "name") VALUES (9, 'Cat');
            """)
        #expect(try messages(url) == [
            "#meta: formatVersion is missing, expected 1",
            "#meta: schemaVersion is 7, but the stored schema has version 1",
            "#types: type Cat (id 9) has a row, but the schema has no such type",
            "#types: no row for type Spot",
            #"Node: column "when" of "Node" is double precision, the schema needs bigint"#,
            #"Node: the table "Node" has no column "price""#,
            #"Node: the table "Node" has a column "extra" the schema does not define"#,
            #"Node.tags: the table "Node.tags" is missing"#,
        ])
        try breakRealm(schema, ##"UPDATE "#meta" SET "value" = 'types: [' WHERE "key" = 'schema'"##)
        let report = try RealmChecker(path: url).check()
        #expect(report.messages == [
            "#meta: the stored schema cannot be read: <stored schema>:2:1: error: invalid YAML: did not find expected node content while parsing a flow node"
        ])
        #expect(report.schemaVersion == nil)
    }

    @Test func indexesPrimaryKeysAndTheirValidity() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, schema) = try graphRealm()
        try breakRealm(schema, """
            DROP INDEX "Node.peers#value";
            DROP INDEX "#mixed#container";
            DROP INDEX "Owner.rival#index";
            CREATE INDEX "Owner.rival#index" ON "Owner" ("name");
            ALTER TABLE "Owner.nodes" DROP CONSTRAINT "Owner.nodes_pkey";
            UPDATE pg_catalog.pg_index SET indisvalid = false WHERE indexrelid = '"\(schema)"."Node.next#index"'::regclass;
            """)
        #expect(try messages(url) == [
            #"PostgreSQL integrity check: the index "Node.next#index" of "Node" is not valid, so PostgreSQL neither uses it nor keeps it up to date"#,
            ##"Owner.nodes: the table "Owner.nodes" has no primary key ("#owner", "#pos")"##,
            ##"#mixed: the index "#mixed#container" is missing"##,
            #"Owner.rival: the index "Owner.rival#index" is not the schema's: found `CREATE INDEX "Owner.rival#index" ON \#(schema)."Owner" USING btree (name)`, expected `CREATE INDEX "Owner.rival#index" ON "Owner" ("rival")`"#,
            #"Node.peers: the index "Node.peers#value" is missing"#,
        ])
    }

    @Test func collectionsAndNestedContainers() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, schema) = try graphRealm()
        try breakRealm(schema, """
            UPDATE "Owner.nodes" SET "#pos" = 5 WHERE "#owner" = 1 AND "#pos" = 1;
            INSERT INTO "Owner.seen" ("#owner", "#value") VALUES (42, 7), (42, 8);
            INSERT INTO "Node.tags" ("#owner", "#value") VALUES (1, NULL);
            UPDATE "#mixed" SET "#pos" = 9 WHERE "#container" = 3 AND "#pos" = 5;
            """)
        #expect(try messages(url) == [
            "Node.tags: object 1 holds null where a value is required",
            "Owner.nodes: object 1 has 2 elements at positions 0 to 5, not 0 to 1",
            "Owner.seen: 2 elements belong to object 42, which does not exist",
            "#mixed: container 3 has 6 elements at positions 0 to 9, not 0 to 5",
        ])
        let (other, otherSchema) = try graphRealm()
        try breakRealm(otherSchema, """
            UPDATE "Node" SET "payload" = NULL, "payload#type" = 0 WHERE "name" = 'lonely';
            UPDATE "Node" SET "payload" = '2', "payload#type" = 12 WHERE "name" = 's';
            UPDATE "#mixed" SET "#key" = 'k' WHERE "#container" = 3 AND "#pos" = 0;
            INSERT INTO "#mixed" ("#container", "#pos", "#key", "#type", "#value") VALUES (2, NULL, 'k', 2, '5');
            """)
        #expect(try messages(other) == [
            "#mixed: container 1 holds 2 entries, but no mixed value refers to it",
            "#mixed: container 2 is referred to by 2 mixed values",
            "#mixed: container 3 is a list, but holds entries that are not list elements",
            #"#mixed: container 2 holds the key "k" 2 times"#,
        ])
    }

    @Test func aReportListsAFewOfOneKindAndCountsTheRest() throws {
        guard PostgresTestServer.isReady() else { return }
        let (url, schema) = try graphRealm()
        try breakRealm(schema, #"UPDATE "Node" SET "next" = "next" + 1000 WHERE "next" IS NOT NULL"#)
        let report = try RealmChecker(path: url, listedPerCheck: 2).check()
        #expect(report.messages == [
            "Node.next: object 2 links to Node 1002, which does not exist",
            "Node.next: object 5 links to Node 1006, which does not exist",
            "Node.next: 100 more dangling links not listed",
        ])
        #expect(report.problemCount == 102)
        #expect(report.findings[0].place == CheckFinding.Place(type: "Node", property: "next", objectId: 2, table: "Node"))
    }

    @Test func schemasThatHoldNoRealmAndServersThatRefuse() throws {
        guard PostgresTestServer.isReady() else { return }
        let empty = PostgresTestServer.freshRealmURL("none")
        let location = try PostgresLocation(url: empty)
        let notARealm = KuraError.check(
            .notARealm, "'\(location.description)' is not a realm: its schema '\(location.schema)' holds no Kura tables")
        #expect(throws: notARealm) { try RealmChecker(path: empty).check() }
        try PostgresTestServer.psql("CREATE SCHEMA \"\(location.schema)\"; CREATE TABLE \"\(location.schema)\".t (x int)")
        #expect(throws: notARealm) { try RealmChecker(path: empty).check() }

        var stranger = location
        stranger.user = "nobody"
        let refused = #expect(throws: KuraError.self) { try RealmChecker(path: stranger.description).check() }
        #expect(refused?.code == .store(.openFailed))
        #expect(refused?.message.hasPrefix("cannot open realm '\(stranger.description)': ") == true)
        var closed = location
        closed.port = 1
        let unreachable = #expect(throws: KuraError.self) { try RealmChecker(path: closed.description).check() }
        #expect(unreachable?.code == .store(.openFailed))
        #expect(unreachable?.message.contains("'\(closed.description)'") == true)
    }

    @Test func theCommandChecksARealmURL() throws {
        guard PostgresTestServer.isReady() else { return }
        let kura = Fixtures.executable("kura")
        let (url, schema) = try graphRealm()
        let healthy = try Fixtures.run(kura, ["check", url])
        #expect(healthy.status == 0, "\(healthy.stderr)")
        #expect(healthy.stdout == "\(url): ok (111 objects in 3 types, schema version 1)\n")
        try breakRealm(schema, """
            UPDATE "Node" SET "next" = 999 WHERE "name" = 'self';
            UPDATE "Node" SET "spot" = NULL WHERE "name" = 'lonely';
            """)
        let broken = try Fixtures.run(kura, ["check", url])
        #expect(broken.status == 65)
        #expect(broken.stdout == """
            Node.next: object 2 links to Node 999, which does not exist
            Spot: object 1 is embedded, but no object owns it
            Spot: object 2 is embedded below Spot 1, which no object owns
            3 problems found

            """)
        let empty = PostgresTestServer.freshRealmURL("none")
        let location = try PostgresLocation(url: empty)
        let notRealm = try Fixtures.run(kura, ["check", empty])
        #expect(notRealm.status == 65)
        #expect(notRealm.stderr == "kura: error: '\(location.description)' is not a realm: its schema '\(location.schema)' holds no Kura tables\n")
    }
}
