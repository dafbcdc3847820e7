import Foundation
import KuraTestSupport
import Testing

/// The `kura` binary on real files: init, schema, config.yaml defaults and exit codes.
@Suite struct CommandLineTests {
    let kura = Fixtures.executable("kura")

    @Test func initCreatesARealmAndSchemaPrintsIt() throws {
        let folder = try Fixtures.temporaryDirectory()
        let realm = folder.appendingPathComponent("dogs.realm").path
        let created = try Fixtures.run(kura, ["init", realm, "--schema", Fixtures.samplesSchemaPath])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout == "\(realm): created with schema version 1, 5 types\n")
        let again = try Fixtures.run(kura, ["init", realm, "--schema", Fixtures.samplesSchemaPath])
        #expect(again.stdout == "\(realm): already a realm with this schema (version 1, 5 types)\n")
        let printed = try Fixtures.run(kura, ["schema", realm])
        #expect(printed.status == 0)
        #expect(printed.stdout == (try Fixtures.samplesSchema()).yaml)
        #expect(printed.stdout.contains("      owners: { linkingObjects: Person.dogs }\n"))
    }

    @Test func configYAMLSuppliesTheDefaults() throws {
        let folder = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Fixtures.samplesSchemaPath, toPath: folder.appendingPathComponent("schema.yaml").path)
        try "realm: data/app.realm\nschema: schema.yaml\n".write(
            to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        let created = try Fixtures.run(kura, ["init"], currentDirectory: folder)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout == "data/app.realm: created with schema version 1, 5 types\n")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/app.realm").path))
        let printed = try Fixtures.run(kura, ["schema"], currentDirectory: folder)
        #expect(printed.status == 0)
        #expect(printed.stdout.hasPrefix("schemaVersion: 1\ntypes:\n  DogToy:\n"))
    }

    @Test func exitCodesFollowTheSpec() throws {
        let folder = try Fixtures.temporaryDirectory()
        let realm = folder.appendingPathComponent("x.realm").path
        let noSchema = try Fixtures.run(kura, ["init", realm], currentDirectory: folder)
        #expect(noSchema.status == 64)
        #expect(noSchema.stderr == "kura: error: a schema file is needed: give --schema or set it in config.yaml\n")

        let missing = try Fixtures.run(kura, ["init", realm, "--schema", "nope.yaml"], currentDirectory: folder)
        #expect(missing.status == 66)
        #expect(missing.stderr == "kura: error: cannot read schema file 'nope.yaml'\n")

        let bad = folder.appendingPathComponent("bad.yaml")
        try "types:\n  Dog:\n    properties:\n      owner: Persn?\n".write(to: bad, atomically: true, encoding: .utf8)
        let invalid = try Fixtures.run(kura, ["init", realm, "--schema", bad.path])
        #expect(invalid.status == 65)
        #expect(invalid.stderr == "kura: \(bad.path):4:14: error: Dog.owner: unknown type 'Persn'\n")
        #expect(!FileManager.default.fileExists(atPath: realm))

        let noRealm = try Fixtures.run(kura, ["schema", folder.appendingPathComponent("none.realm").path])
        #expect(noRealm.status == 66)

        let unknownFlag = try Fixtures.run(kura, ["init", realm, "--schemaa", "x"])
        #expect(unknownFlag.status == 64)
    }

    @Test func aDifferentSchemaOnAnExistingRealmNeedsAMigration() throws {
        let folder = try Fixtures.temporaryDirectory()
        let realm = folder.appendingPathComponent("x.realm").path
        let first = folder.appendingPathComponent("v1.yaml")
        try "schemaVersion: 2\ntypes:\n  Dog:\n    properties:\n      name: string\n".write(to: first, atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", first.path]).status == 0)
        let older = folder.appendingPathComponent("v0.yaml")
        try "schemaVersion: 1\ntypes:\n  Dog:\n    properties:\n      name: string\n".write(to: older, atomically: true, encoding: .utf8)
        let lower = try Fixtures.run(kura, ["init", realm, "--schema", older.path])
        #expect(lower.status == 65)
        #expect(lower.stderr == "kura: error: schema version 1 is lower than the realm's version 2\n")
        let changed = folder.appendingPathComponent("v3.yaml")
        try "schemaVersion: 3\ntypes:\n  Dog:\n    primaryKey: name\n    properties:\n      name: string\n".write(to: changed, atomically: true, encoding: .utf8)
        let needsMigration = try Fixtures.run(kura, ["init", realm, "--schema", changed.path])
        #expect(needsMigration.status == 65)
        #expect(needsMigration.stderr == "kura: error: Dog.name: primary key added: needs a migration\n")
    }
}
