import Foundation
import GRDB
import Kura
import KuraTestSupport
import Testing

/// Each invariant `RealmChecker` checks, broken through raw SQL on a realm with every feature
/// (GraphFixture), and the exact lines the report gives for it, and nothing else.
///
/// The fixture's ids: Owner 1 Ann, 2 Bo, 3 Gone (keys 1 to 3); Node 1 "s" (shared), 2 "self",
/// 3 "lonely" (Spot 1, payload map container 1 holding map 2 and list 3), 4 "inMixed", 5 "cycleA".
@Suite struct CheckInvariantTests {
    let path: String

    init() throws {
        (path, _) = try GraphFixture.makeRealm(in: try Fixtures.temporaryDirectory())
    }

    /// Runs `sql` on the realm file with a connection of its own, as another program would.
    func breakRealm(_ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
    }

    func messages(listed: Int = 20) throws -> [String] {
        try RealmChecker(path: path, listedPerCheck: listed).check().messages
    }

    @Test func theFixtureIsHealthyToBeginWith() throws {
        let report = try RealmChecker(path: path).check()
        #expect(report.messages == [])
        #expect(report.isHealthy)
        #expect(report.objectCount == 111)
        #expect(report.description == "\(path): ok (111 objects in 3 types, schema version 1)")
    }

    @Test func sqliteIntegrityCheckLinesAreReported() throws {
        // The index on Owner.rival is declared over another column: its entries no longer match the rows.
        try breakRealm("""
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = replace(sql, '("rival")', '("name")') WHERE name = 'Owner.rival#index';
            """)
        #expect(try messages() == [
            "SQLite integrity check: row 1 missing from index Owner.rival#index",
            "SQLite integrity check: row 2 missing from index Owner.rival#index",
            "SQLite integrity check: row 3 missing from index Owner.rival#index",
            #"Owner.rival: the index "Owner.rival#index" is not the schema's: found `CREATE INDEX "Owner.rival#index" ON "Owner"("name")`, expected `CREATE INDEX "Owner.rival#index" ON "Owner"("rival")`"#,
        ])
    }

    @Test func missingTablesAndColumnsAreReported() throws {
        try breakRealm("""
            DROP TABLE "Node.tags";
            ALTER TABLE "Node" DROP COLUMN "price";
            ALTER TABLE "Node" ADD COLUMN "extra" INTEGER;
            """)
        #expect(try messages() == [
            #"Node: the table "Node" has no column "price""#,
            #"Node: the table "Node" has a column "extra" the schema does not define"#,
            #"Node.tags: the table "Node.tags" is missing"#,
        ])
    }

    @Test func metadataMustAgreeWithTheStoredSchema() throws {
        try breakRealm("""
            DELETE FROM "#meta" WHERE "key" = 'formatVersion';
            UPDATE "#meta" SET "value" = 7 WHERE "key" = 'schemaVersion';
            DELETE FROM "#types" WHERE "name" = 'Spot';
            INSERT INTO "#types" ("id", "name") VALUES (9, 'Cat');
            """)
        #expect(try messages() == [
            "#meta: formatVersion is missing, expected 1",
            "#meta: schemaVersion is 7, but the stored schema has version 1",
            "#types: type Cat (id 9) has a row, but the schema has no such type",
            "#types: no row for type Spot",
        ])
    }

    @Test func aStoredSchemaThatCannotBeReadStopsTheCheck() throws {
        try breakRealm(##"UPDATE "#meta" SET "value" = 'types: [' WHERE "key" = 'schema'"##)
        let report = try RealmChecker(path: path).check()
        #expect(report.messages == [
            "#meta: the stored schema cannot be read: <stored schema>:2:1: error: invalid YAML: did not find expected node content while parsing a flow node"
        ])
        #expect(report.schemaVersion == nil)
        #expect(report.typeCount == 0)
        try breakRealm(##"DELETE FROM "#meta" WHERE "key" = 'schema'"##)
        #expect(try messages() == ["#meta: the realm has no stored schema"])
    }

    @Test func danglingTypedLinks() throws {
        try breakRealm("""
            UPDATE "Node" SET "next" = 999 WHERE "name" = 'self';
            UPDATE "Node.peers" SET "#value" = 998 WHERE "#owner" = 2 AND "#pos" = 1;
            UPDATE "Owner.byName" SET "#value" = 997 WHERE "#key" = 's';
            """)
        #expect(try messages() == [
            #"Owner.byName: object 1 at key "s" links to Node 997, which does not exist"#,
            "Node.next: object 2 links to Node 999, which does not exist",
            "Node.peers: object 2 at [1] links to Node 998, which does not exist",
        ])
    }

    @Test func linksInMixedValues() throws {
        try breakRealm("""
            UPDATE "Owner" SET "favorite" = 999 WHERE "id" = 1;
            UPDATE "Owner" SET "favorite#type" = 64 + 50 WHERE "id" = 2;
            UPDATE "Node.extras" SET "#type" = 64 + 3 WHERE "#owner" = 3 AND "#pos" = 0;
            UPDATE "#mixed" SET "#type" = 64 + 1, "#value" = 50 WHERE "#container" = 3 AND "#pos" = 0;
            """)
        #expect(try messages() == [
            "Owner.favorite: object 1 links to Node 999, which does not exist",
            "Owner.favorite: object 2 links to object 1 of type id 50, which the realm does not have",
            "Node.extras: object 3 at [0] links to embedded Spot 4, which a mixed value cannot hold",
            "#mixed: container 3 at [0] links to Owner 50, which does not exist",
        ])
    }

    @Test func embeddedObjectsHaveExactlyOneParent() throws {
        // Spot 1 loses its parent; Spot 2, in Spot 1's list, gets a second one.
        try breakRealm("""
            UPDATE "Node" SET "spot" = NULL WHERE "name" = 'lonely';
            UPDATE "Node" SET "spot" = 2 WHERE "name" = 's';
            """)
        #expect(try messages() == [
            "Spot: object 1 is embedded, but no object owns it",
            "Spot: object 2 is owned by 2 parents: Node.spot of object 1, Spot.near of object 1",
        ])
    }

    @Test func embeddedObjectsOwnedOnlyByEachOtherAreReported() throws {
        // Spot 1 leaves Node 3 and goes into the list of Spot 2, its own child: each has one parent,
        // but no top-level object owns either.
        try breakRealm("""
            UPDATE "Node" SET "spot" = NULL WHERE "name" = 'lonely';
            INSERT INTO "Spot.near" ("#owner", "#pos", "#value") VALUES (2, 0, 1);
            """)
        #expect(try messages() == [
            "Spot: object 1 is embedded in a cycle of embedded objects that no top-level object owns",
            "Spot: object 2 is embedded in a cycle of embedded objects that no top-level object owns",
        ])
    }

    @Test func embeddedObjectsBelowAnOrphanAreReported() throws {
        try breakRealm(#"UPDATE "Node" SET "spot" = NULL WHERE "name" = 'lonely'"#)
        #expect(try messages() == [
            "Spot: object 1 is embedded, but no object owns it",
            "Spot: object 2 is embedded below Spot 1, which no object owns",
        ])
    }

    @Test func indexesAreThereAsKuraMakesThem() throws {
        try breakRealm("""
            DROP INDEX "Owner.id#index";
            DROP INDEX "Node.peers#value";
            DROP INDEX "#mixed#container";
            DROP INDEX "Owner.rival#index";
            CREATE INDEX "Owner.rival#index" ON "Owner"("name");
            """)
        #expect(try messages() == [
            ##"#mixed: the index "#mixed#container" is missing"##,
            #"Owner.id: the index "Owner.id#index" is missing"#,
            #"Owner.rival: the index "Owner.rival#index" is not the schema's: found `CREATE INDEX "Owner.rival#index" ON "Owner"("name")`, expected `CREATE INDEX "Owner.rival#index" ON "Owner"("rival")`"#,
            #"Node.peers: the index "Node.peers#value" is missing"#,
        ])
    }

    @Test func collectionsHaveOwnersAndDenseLists() throws {
        try breakRealm("""
            UPDATE "Owner.nodes" SET "#pos" = 5 WHERE "#owner" = 1 AND "#pos" = 1;
            INSERT INTO "Owner.seen" ("#owner", "#value") VALUES (42, 7), (42, 8);
            INSERT INTO "Node.tags" ("#owner", "#value") VALUES (1, NULL);
            UPDATE "#mixed" SET "#pos" = 9 WHERE "#container" = 3 AND "#pos" = 5;
            """)
        #expect(try messages() == [
            "Node.tags: object 1 holds null where a value is required",
            "Owner.nodes: object 1 has 2 elements at positions 0 to 5, not 0 to 1",
            "Owner.seen: 2 elements belong to object 42, which does not exist",
            "#mixed: container 3 has 6 elements at positions 0 to 9, not 0 to 5",
        ])
    }

    @Test func nestedMixedContainersBelongToOneValue() throws {
        // Container 1 (lonely's payload) loses its value; container 2 gets a second one, and a repeated key.
        try breakRealm("""
            UPDATE "Node" SET "payload" = NULL, "payload#type" = 0 WHERE "name" = 'lonely';
            UPDATE "Node" SET "payload" = 2, "payload#type" = 12 WHERE "name" = 's';
            UPDATE "#mixed" SET "#key" = 'k' WHERE "#container" = 3 AND "#pos" = 0;
            INSERT INTO "#mixed" VALUES (2, NULL, 'k', 2, 5);
            """)
        #expect(try messages() == [
            "#mixed: container 1 holds 2 entries, but no mixed value refers to it",
            "#mixed: container 2 is referred to by 2 mixed values",
            "#mixed: container 3 is a list, but holds entries that are not list elements",
            #"#mixed: container 2 holds the key "k" 2 times"#,
        ])
    }

    @Test func primaryKeysAreUniqueAndPresent() throws {
        try breakRealm("""
            DROP INDEX "Owner.id#index";
            UPDATE "Owner" SET "id" = 1 WHERE "name" = 'Bo';
            UPDATE "Owner" SET "id" = NULL WHERE "name" = 'Gone';
            """)
        #expect(try messages() == [
            "Owner.id: object 3 holds null where a value is required",
            #"Owner.id: the index "Owner.id#index" is missing"#,
            "Owner.id: key 1 is held by 2 objects: 1, 2",
        ])
    }

    @Test func countersStayAtOrAboveTheHighestIdentifier() throws {
        try breakRealm("""
            UPDATE "#types" SET "lastObjectId" = 2, "lastKey" = 1 WHERE "name" = 'Owner';
            UPDATE "#meta" SET "value" = 2 WHERE "key" = 'lastMixedContainer';
            """)
        #expect(try messages() == [
            "#meta: the container counter (lastMixedContainer) is 2, below the highest container id 3",
            "Owner: the object id counter (#types.lastObjectId) is 2, below the highest object id 3",
            "Owner.id: the autoIncrement counter (#types.lastKey) is 1, below the highest key 3",
        ])
    }

    @Test func valuesFitTheirTypesAndTags() throws {
        try breakRealm("""
            UPDATE "Node" SET "oid" = x'0102', "price" = 'abc' WHERE "name" = 'lonely';
            UPDATE "Node" SET "payload#type" = 13 WHERE "name" = 's';
            UPDATE "Node" SET "name" = NULL WHERE "name" = 'cycleA';
            UPDATE "#mixed" SET "#type" = 2 WHERE "#container" = 3 AND "#pos" = 2;
            """)
        #expect(try messages() == [
            "Node.name: object 5 holds null where a value is required",
            "Node.payload: object 1 holds null under tag 13, which no kind of value has",
            #"Node.price: object 3 holds text "abc", which is not a valid decimal"#,
            "Node.oid: object 3 holds a blob of 2 bytes, which is not a valid objectId",
            #"#mixed: container 3 at [2] holds text "three" tagged int"#,
        ])
    }

    @Test func tablesThatAreNotStrictAreReportedAndReadWithoutTrusting() throws {
        // Tables as another program might make them: their columns hold text where Kura keeps integers.
        try breakRealm(##"""
            DROP TABLE "Owner.seen";
            CREATE TABLE "Owner.seen" ("#owner" INTEGER NOT NULL, "#value" INTEGER);
            INSERT INTO "Owner.seen" VALUES ('abc', 'x'), (1, 2.5);
            DROP TABLE "#types";
            CREATE TABLE "#types" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL UNIQUE,
                "lastObjectId" INTEGER NOT NULL DEFAULT 0, "lastKey" INTEGER NOT NULL DEFAULT 0);
            INSERT INTO "#types" VALUES (1, 'Owner', 'many', 3), (2, 'Node', 106, 0), (3, 'Spot', 2, 0);
            """##)
        #expect(try messages() == [
            ##"#types: the counters of type Owner are "many" and 3, not integers"##,
            ##"#types: the table "#types" is not STRICT, so its columns may hold values of any type"##,
            #"Owner.seen: the table "Owner.seen" is not STRICT, so its columns may hold values of any type"#,
            #"Owner.seen: object "abc" holds text "x", which is not a valid int"#,
            "Owner.seen: object 1 holds real 2.5, which is not a valid int",
            #"Owner.seen: 1 element belongs to object "abc", which does not exist"#,
            #"Owner.seen: the index "Owner.seen#owner" is missing"#,
        ])
    }

    @Test func aReportListsAFewOfOneKindAndCountsTheRest() throws {
        try breakRealm(#"UPDATE "Node" SET "next" = "next" + 1000 WHERE "next" IS NOT NULL"#)
        let report = try RealmChecker(path: path, listedPerCheck: 2).check()
        #expect(report.messages == [
            "Node.next: object 2 links to Node 1002, which does not exist",
            "Node.next: object 5 links to Node 1006, which does not exist",
            "Node.next: 100 more dangling links not listed",
        ])
        #expect(report.problemCount == 102)
        #expect(report.findings.map(\.kind) == [.danglingLink, .danglingLink, .danglingLink])
        #expect(report.findings[0].place == CheckFinding.Place(type: "Node", property: "next", objectId: 2, table: "Node"))
        #expect(report.findings[2].place.objectId == nil)
        #expect(report.description.hasSuffix("\n102 problems found"))
        // One left over is counted in the singular.
        let nearlyAll = try RealmChecker(path: path, listedPerCheck: 101).check()
        #expect(nearlyAll.messages.last == "Node.next: 1 more dangling link not listed")
    }
}
