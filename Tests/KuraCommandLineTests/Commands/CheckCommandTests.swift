import Foundation
import GRDB
import KuraTestSupport
import Testing

/// `kura check` run as a program: its report, its JSON, its exit codes.
@Suite struct CheckCommandTests {
    let folder: URL
    let kura = Fixtures.executable("kura")
    let realm: String

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        (realm, _) = try GraphFixture.makeRealm(in: folder)
    }

    @Test func aHealthyRealmPrintsOneLineAndExitsZero() throws {
        let result = try Fixtures.run(kura, ["check", realm])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(realm): ok (111 objects in 3 types, schema version 1)\n")
        #expect(result.stderr == "")
    }

    @Test func aBrokenRealmPrintsEachProblemAndExits65() throws {
        try DatabaseQueue(path: realm).write { db in
            try db.execute(sql: """
                UPDATE "Node" SET "next" = 999 WHERE "name" = 'self';
                UPDATE "Node" SET "spot" = NULL WHERE "name" = 'lonely';
                """)
        }
        let result = try Fixtures.run(kura, ["check", realm])
        #expect(result.status == 65)
        #expect(result.stdout == """
            Node.next: object 2 links to Node 999, which does not exist
            Spot: object 1 is embedded, but no object owns it
            Spot: object 2 is embedded below Spot 1, which no object owns
            3 problems found

            """)
        let json = try Fixtures.run(kura, ["check", realm, "--format", "json"])
        #expect(json.status == 65)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["problemCount"] as? Int == 3)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["kind"] as? String } == ["danglingLink", "orphanEmbedded", "orphanEmbedded"])
        #expect((findings.first?["place"] as? [String: Any])?["objectId"] as? Int == 2)
        #expect(findings.last?["message"] as? String == "Spot: object 2 is embedded below Spot 1, which no object owns")
    }

    @Test func missingFilesAndFilesThatAreNotRealms() throws {
        let missing = folder.appendingPathComponent("none.realm").path
        let absent = try Fixtures.run(kura, ["check", missing])
        #expect(absent.status == 66)
        #expect(absent.stderr == "kura: error: no realm at '\(missing)'\n")
        let text = folder.appendingPathComponent("graph.yaml").path
        let notRealm = try Fixtures.run(kura, ["check", text])
        #expect(notRealm.status == 65)
        #expect(notRealm.stderr == "kura: error: '\(text)' is not a realm: it is not an SQLite database\n")
        #expect(notRealm.stdout == "")
        let help = try Fixtures.run(kura, ["help", "check"])
        #expect(help.stdout.contains("Example: kura check Samples/samples.realm"))
    }

    @Test func theRealmComesFromConfigYAML() throws {
        try "realm: graph.realm\n".write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let result = try Fixtures.run(kura, ["check"], currentDirectory: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "graph.realm: ok (111 objects in 3 types, schema version 1)\n")
    }
}
