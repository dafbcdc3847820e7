import Foundation
import Kura
import KuraTestSupport
import Testing

/// `kura migrate` run as a program on realms (files, and a PostgreSQL realm) made by `kura init` and `kura import`.
@Suite struct MigrateCommandTests {
    typealias M = MigrationFixtures
    let kura = Fixtures.executable("kura")
    let folder: URL

    init() throws {
        folder = try Fixtures.temporaryDirectory()
    }

    /// Writes `text` to a file in the test's folder and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A realm made by `kura init` from `schema` and filled by `kura import` with `documents` of `type`.
    func realm(_ schema: String, _ type: String, _ documents: String) throws -> String {
        let path = folder.appendingPathComponent("test.realm").path
        let created = try Fixtures.run(kura, ["init", path, "--schema", try file("v1.yaml", schema)])
        #expect(created.status == 0, "\(created.stderr)")
        let imported = try Fixtures.run(kura, ["import", path, try file("input.json", documents), "--type", type])
        #expect(imported.status == 0, "\(imported.stderr)")
        return path
    }

    @Test func theDiaryScenarioDryRunThenMigrate() throws {
        let entries = (0..<1000).map { #"{"text": "entry \#($0)", "date": {"$date": "2024-03-01T09:\#(String(format: "%02d", $0 % 60)):00Z"}}"# }
        let realm = try realm(M.diaryV1, "Diary", "[" + entries.joined(separator: ",\n") + "]")
        let v2 = try file("v2.yaml", M.diaryV2)
        let before = try Fixtures.run(kura, ["export", realm, "--type", "Diary", "--format", "jsonl"])

        let refused = try Fixtures.run(kura, ["init", realm, "--schema", v2])
        #expect(refused.status == 65)
        #expect(refused.stderr == "kura: error: Diary.id: primary key added: needs a migration\n")

        let bytes = try M.bytes(realm)
        let plan = """
            \(realm): schema version 1 -> 2
            Diary (1000 objects)
              primary key added: id
              + id: added, each existing object gets a fresh uuid

            """
        let dryRun = try Fixtures.run(kura, ["migrate", realm, "--schema", v2, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout == plan + "dry run: nothing was written\n")
        #expect(try M.bytes(realm) == bytes)

        let migrated = try Fixtures.run(kura, ["migrate", realm, "--schema", v2])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.hasPrefix(plan + "migrated to schema version 2 in "))
        #expect(try Fixtures.run(kura, ["schema", realm]).stdout == (try Schema(yaml: M.diaryV2)).yaml)

        let opened = try Realm(path: realm)
        let ids = Set(try opened.objects("Diary").map { try $0["id"] })
        #expect(ids.count == 1000 && !ids.contains(.null))
        // Texts and dates unchanged: the export without the new key is the export from before.
        let after = try Fixtures.run(kura, ["export", realm, "--type", "Diary", "--format", "jsonl", "--sort", "date, text"])
        let withoutIds = after.stdout.split(separator: "\n").map { line in
            line.replacingOccurrences(of: #"\{"id":"[0-9a-f-]{36}","#, with: "{", options: .regularExpression)
        }
        let sortedBefore = before.stdout.split(separator: "\n").map(String.init)
        #expect(withoutIds.sorted() == sortedBefore.sorted())
        #expect(withoutIds.count == 1000)
    }

    @Test func aPostgresRealmDryRunThenMigrate() throws {
        guard PostgresTestServer.isReady() else { return }
        let url = PostgresTestServer.freshRealmURL("migrate")
        let schemaName = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "schema" }?.value)
        #expect(try Fixtures.run(kura, ["init", url, "--schema", try file("v1.yaml", M.diaryV1)]).status == 0)
        let entries = (0..<50).map { #"{"text": "entry \#($0)", "date": {"$date": "2024-03-01T09:\#(String(format: "%02d", $0)):00Z"}}"# }
        let imported = try Fixtures.run(kura, ["import", url, try file("input.json", "[" + entries.joined(separator: ",") + "]"), "--type", "Diary"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let relations = """
            SELECT string_agg(c.relname, ',' ORDER BY c.relname) FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '\(schemaName)'
            """
        let before = try PostgresTestServer.psql(relations)
        let meta = "SELECT string_agg(\"key\" || '=' || \"value\", ',' ORDER BY \"key\") FROM \"\(schemaName)\".\"#meta\""
        let metaBefore = try PostgresTestServer.psql(meta)
        let v2 = try file("v2.yaml", M.diaryV2)
        let plan = """
            \(url): schema version 1 -> 2
            Diary (50 objects)
              primary key added: id
              + id: added, each existing object gets a fresh uuid

            """
        let dryRun = try Fixtures.run(kura, ["migrate", url, "--schema", v2, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout == plan + "dry run: nothing was written\n")
        #expect(try PostgresTestServer.psql(relations) == before)
        #expect(try PostgresTestServer.psql(meta) == metaBefore)

        let migrated = try Fixtures.run(kura, ["migrate", url, "--schema", v2])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.hasPrefix(plan + "migrated to schema version 2 in "))
        #expect(try Fixtures.run(kura, ["schema", url]).stdout == (try Schema(yaml: M.diaryV2)).yaml)
        #expect(!(try PostgresTestServer.psql(relations)).contains("#old"))
        let opened = try Realm(path: url)
        let ids = Set(try opened.objects("Diary").map { try $0["id"] })
        #expect(ids.count == 50 && !ids.contains(.null))
        #expect(try opened.objects("Diary").map { try $0["text"] } == (0..<50).map { .string("entry \($0)") })
    }

    @Test func aDuplicatedKeyIsRefusedWithItsValuesAndTheFileStaysTheSame() throws {
        let realm = try realm(M.peopleV1, "Person", """
            [{"name": "Alice", "age": 30}, {"name": "Bob", "age": 40}, {"name": "Alice", "age": 31},
             {"name": "Carol", "age": 22}, {"name": "Bob", "age": 41}, {"name": "Alice", "age": 32}]
            """)
        let keyed = try file("v2.yaml", M.peopleByName)
        let bytes = try M.bytes(realm)
        for flags in [["--dry-run"], []] {
            let refused = try Fixtures.run(kura, ["migrate", realm, "--schema", keyed] + flags)
            #expect(refused.status == 65)
            #expect(refused.stderr == """
                kura: error: Person.name: cannot be the primary key: 2 values are held by more than one object: \
                "Alice" (3 objects), "Bob" (2 objects)\n
                """)
            #expect(refused.stdout.hasPrefix("\(realm): schema version 1 -> 2\nPerson (6 objects)\n  primary key added: name\n"))
            #expect(!refused.stdout.contains("migrated") && !refused.stdout.contains("dry run"))
            #expect(try M.bytes(realm) == bytes)
        }
    }

    @Test func renamesKeepEveryValueAndTheDryRunWritesNothing() throws {
        let realm = try realm(M.peopleV1, "Person", """
            [{"name": "Alice", "age": 30, "tags": ["a", "b"], "extra": {"k": [1, 2]}, "home": {"city": "Oslo"}},
             {"name": "Bob", "age": 40, "nick": "bobby", "pets": [{"name": "Rex"}]}]
            """)
        let renamed = M.peopleV1.replacingOccurrences(of: "schemaVersion: 1", with: "schemaVersion: 2")
            .replacingOccurrences(of: "      name: string\n      age: int", with: "      fullName: { type: string, renamedFrom: name }\n      age: int")
            .replacingOccurrences(of: "tags: list<string>", with: "labels: { type: \"list<string>\", renamedFrom: tags }")
        let schema = try file("v2.yaml", renamed)
        let before = try Fixtures.run(kura, ["export", realm, "--type", "Person"]).stdout
        let bytes = try M.bytes(realm)
        let dryRun = try Fixtures.run(kura, ["migrate", realm, "--schema", schema, "--dry-run"])
        #expect(dryRun.stdout == """
            \(realm): schema version 1 -> 2
            Person (2 objects)
              ~ fullName: renamed from name, values kept
              ~ labels: renamed from tags, values kept
            dry run: nothing was written

            """)
        #expect(try M.bytes(realm) == bytes)
        #expect(try Fixtures.run(kura, ["migrate", realm, "--schema", schema]).status == 0)
        let after = try Fixtures.run(kura, ["export", realm, "--type", "Person"]).stdout
        #expect(after == before.replacingOccurrences(of: "\n{\"name\":", with: "\n{\"fullName\":")
            .replacingOccurrences(of: #""tags":"#, with: #""labels":"#))
        #expect(after.contains(#""labels":["a","b"]"#) && after.contains(#""extra":{"k":[1,2]}"#))
    }

    @Test func theReadmeWalkThroughOfTheDiarySamples() throws {
        let sample = { (name: String) in Fixtures.packageRoot.appendingPathComponent("Samples/\(name)").path }
        let realm = folder.appendingPathComponent("diary.realm").path
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", sample("diary-v1.yaml")]).status == 0)
        #expect(try Fixtures.run(kura, ["import", realm, sample("diary.jsonl"), "--type", "Diary"]).status == 0)
        let plan = """
            \(realm): schema version 1 -> 2
            Diary (5 objects)
              primary key added: id
              + id: added, each existing object gets a fresh uuid

            """
        #expect(try Fixtures.run(kura, ["migrate", realm, "--schema", sample("diary-v2.yaml"), "--dry-run"]).stdout
            == plan + "dry run: nothing was written\n")
        let migrated = try Fixtures.run(kura, ["migrate", realm, "--schema", sample("diary-v2.yaml")])
        #expect(migrated.stdout.hasPrefix(plan + "migrated to schema version 2 in "))
        let refused = try Fixtures.run(kura, ["migrate", realm, "--schema", sample("diary-text-key.yaml")])
        #expect(refused.status == 65)
        #expect(refused.stderr == """
            kura: error: Diary.text: cannot be the primary key: 1 value is held by more than one object: "Rain all day." (2 objects)

            """)
        #expect(try Realm(path: realm).schema.version == 2)
    }

    @Test func versionRulesNothingToDoMissingRealmsAndHelp() throws {
        let realm = try realm(M.diaryV1, "Diary", #"[{"text": "one", "date": {"$date": "2024-03-01T09:00:00Z"}}]"#)
        let lower = try file("v0.yaml", M.diaryV1.replacingOccurrences(of: "schemaVersion: 1", with: "schemaVersion: 0"))
        let refusedLower = try Fixtures.run(kura, ["migrate", realm, "--schema", lower])
        #expect(refusedLower.status == 65)
        #expect(refusedLower.stderr == "kura: error: schema version 0 is lower than the realm's version 1\n")

        let same = try file("same.yaml", M.diaryV2.replacingOccurrences(of: "schemaVersion: 2", with: "schemaVersion: 1"))
        let notBumped = try Fixtures.run(kura, ["migrate", realm, "--schema", same])
        #expect(notBumped.status == 65)
        #expect(notBumped.stderr == "kura: error: Diary.id: primary key added: bump schemaVersion above 1 to migrate\n")

        let current = try Fixtures.run(kura, ["migrate", realm, "--schema", try file("v1.yaml", M.diaryV1)])
        #expect(current.status == 0)
        #expect(current.stdout == "\(realm): already at schema version 1 with this schema: nothing to migrate\n")

        let missingPath = folder.appendingPathComponent("none.realm").path
        let missing = try Fixtures.run(kura, ["migrate", missingPath, "--schema", same])
        #expect(missing.status == 66)
        #expect(missing.stderr == "kura: error: no realm at '\(missingPath)'\n")
        #expect(!FileManager.default.fileExists(atPath: missingPath))

        let help = try Fixtures.run(kura, ["help", "migrate"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--dry-run") && help.stdout.contains("renamedFrom") && help.stdout.contains("default: uuid"))
    }
}
