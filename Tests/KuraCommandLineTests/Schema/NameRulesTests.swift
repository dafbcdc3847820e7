import Foundation
import Kura
import KuraTestSupport
import Testing

/// Type and property names: what a schema may call things, so that every name it accepts is stored,
/// read back, queried and exported as written, and every name it refuses is refused at its line.
@Suite struct NameRulesTests {
    /// `kura init` with `schema`; the result, and whether the realm file exists afterwards.
    private func initialize(_ schema: String, in folder: URL, as name: String = "s") throws
        -> (status: Int32, stdout: String, stderr: String, created: Bool)
    {
        try schema.write(to: folder.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        let result = try Fixtures.run(
            Fixtures.executable("kura"), ["init", "\(name).realm", "--schema", "\(name).yaml"], currentDirectory: folder)
        let created = FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(name).realm").path)
        return (result.status, result.stdout, result.stderr, created)
    }

    private static func oneProperty(_ type: String, _ property: String) -> String {
        "types:\n  \(type):\n    properties:\n      \(property): string\n"
    }

    @Test func namesThatCannotBeStoredOrReadBackAreRefusedAtTheirLine() throws {
        let folder = try Fixtures.temporaryDirectory()
        let refused: [(schema: String, message: String)] = [
            // Once stored, a property named null read back as a null key and bricked the realm.
            (Self.oneProperty("T", #""null""#), "4:15: error: T: invalid property name 'null': 'null' is a reserved word"),
            (Self.oneProperty("T", "'NULL'"), "4:15: error: T: invalid property name 'NULL': 'NULL' is a reserved word"),
            (Self.oneProperty("T", "True"), "4:13: error: T: invalid property name 'True': 'True' is a reserved word"),
            (Self.oneProperty("T", "nil"), "4:12: error: T: invalid property name 'nil': 'nil' is a reserved word"),
            (Self.oneProperty("T", "contains"), "4:17: error: T: invalid property name 'contains': 'contains' is a reserved word"),
            (Self.oneProperty(#""null""#, "name"), "2:3: error: invalid type name 'null': 'null' is a reserved word"),
            (Self.oneProperty("false", "name"), "2:3: error: invalid type name 'false': 'false' is a reserved word"),
            (Self.oneProperty("string", "name"), "2:3: error: invalid type name 'string': 'string' is the name of a scalar type"),
            (Self.oneProperty("sqlite_stat1", "name"),
             "2:3: error: invalid type name 'sqlite_stat1': names starting with 'sqlite_' are reserved by SQLite"),
            (Self.oneProperty("SQLite_Things", "name"),
             "2:3: error: invalid type name 'SQLite_Things': names starting with 'sqlite_' are reserved by SQLite"),
            ("types:\n  T:\n    properties:\n      name: string\n      Name: int\n",
             "5:13: error: T.Name differs from 'name' only in letter case, which SQLite cannot tell apart"),
            ("types:\n  T:\n    properties:\n      tags: list<string>\n      TAGS: set<int>\n",
             "5:13: error: T.TAGS differs from 'tags' only in letter case, which SQLite cannot tell apart"),
            ("types:\n  Dog:\n    properties:\n      a: int\n  DOG:\n    properties:\n      b: int\n",
             "5:3: error: type 'DOG' differs from 'Dog' only in letter case, which SQLite cannot tell apart"),
            ("types:\n  T:\n    primaryKey: \"null\"\n    properties:\n      \"null\": string\n",
             "5:15: error: T: invalid property name 'null': 'null' is a reserved word"),
        ]
        for (index, item) in refused.enumerated() {
            let result = try initialize(item.schema, in: folder, as: "s\(index)")
            #expect(result.status == 65, "\(item.schema)")
            #expect(result.stderr == "kura: s\(index).yaml:\(item.message)\n")
            #expect(!result.created)
        }
    }

    @Test func aMigrationToANameThatCannotBeStoredLeavesTheRealmAsItWas() throws {
        let realm = try HostileRealm(schema: Self.oneProperty("T", "name"), seed: nil)
        try "schemaVersion: 1\n\(Self.oneProperty("T", "name"))      \"null\": string?\n"
            .write(to: realm.folder.appendingPathComponent("next.yaml"), atomically: true, encoding: .utf8)
        let result = try realm.run(["migrate", "r.realm", "--schema", "next.yaml"])
        #expect(result.status == 65)
        #expect(result.stderr == "kura: next.yaml:6:15: error: T: invalid property name 'null': 'null' is a reserved word\n")
        let schema = try realm.run(["schema", "r.realm"])
        #expect(schema.status == 0)
        #expect(schema.stdout == "schemaVersion: 0\n\(Self.oneProperty("T", "name"))")
    }

    @Test func wordsYAMLReadsAsBooleansAreQuotedInTheStoredSchemaAndReadBack() throws {
        let schema = """
            types:
              T:
                primaryKey: "yes"
                properties:
                  "yes": string
                  "no": { type: int?, renamedFrom: "off" }
                  on: bool?
                  y: double?
                  n: { type: double, default: 1.5 }
            """
        let realm = try HostileRealm(schema: schema, seed: nil)
        let stored = try realm.run(["schema", "r.realm"])
        #expect(stored.status == 0, "\(stored.stderr)")
        #expect(stored.stdout == """
            schemaVersion: 0
            types:
              T:
                primaryKey: "yes"
                properties:
                  "yes": string
                  "no": { type: "int?", renamedFrom: "off" }
                  "on": bool?
                  "y": double?
                  "n": { type: "double", default: 1.5 }

            """)
        try realm.write("t.json", Array(#"[{"yes": "k", "no": 1, "on": true, "y": 2.5}]"#.utf8))
        let exported = try realm.expectRoundTrip("t.json", ["--type", "T"])
        #expect(exported.contains(#"{"$type":"T","yes":"k","no":1,"on":true,"y":2.5,"n":1.5}"#))
        let query = try realm.run(["export", "r.realm", "--type", "T", "--where", "yes == 'k' AND on == true", "--format", "yaml"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.contains("\"yes\": k\n"))
    }

    @Test func aHandBuiltSchemaFollowsTheSameRules() throws {
        let reserved = Schema(types: [ObjectSchema(name: "T", properties: [Property(name: "null", type: .string)])])
        #expect(throws: KuraError.schema(.invalidName, "T: invalid property name 'null': 'null' is a reserved word")) {
            try reserved.validate()
        }
        let folded = Schema(types: [
            ObjectSchema(name: "Dog", properties: [Property(name: "a", type: .int)]),
            ObjectSchema(name: "dog", properties: [Property(name: "a", type: .int)]),
        ])
        #expect(throws: KuraError.schema(.duplicateName, "type 'dog' differs from 'Dog' only in letter case, which SQLite cannot tell apart")) {
            try folded.validate()
        }
        #expect(Identifier.isValid("名前") && Identifier.isValid("naïve") && Identifier.isValid("_٣x"))
        #expect(!Identifier.isValid("cafe\u{301}") && !Identifier.isValid("3d") && !Identifier.isValid("a-b"))
    }

    @Test func anUnknownTypeIsReportedWhereItIsWrittenNotAtABacklinkToIt() throws {
        let folder = try Fixtures.temporaryDirectory()
        let schemas: [(schema: String, message: String)] = [
            ("types:\n  Dog:\n    properties:\n      owners: { linkingObjects: Person.dogs }\n  Person:\n    properties:\n      dogs: list<Dgo>\n",
             "7:18: error: Person.dogs: unknown type 'Dgo'"),
            ("types:\n  Dog:\n    properties:\n      owners: { linkingObjects: Person.pet }\n  Person:\n    properties:\n      pet: Dgo?\n",
             "7:12: error: Person.pet: unknown type 'Dgo'"),
            ("types:\n  Dog:\n    properties:\n      owners: { linkingObjects: Person.pets }\n  Person:\n    properties:\n      pets: map<Dgo?>\n",
             "7:17: error: Person.pets: unknown type 'Dgo'"),
        ]
        for (index, item) in schemas.enumerated() {
            let result = try initialize(item.schema, in: folder, as: "u\(index)")
            #expect(result.status == 65)
            #expect(result.stderr == "kura: u\(index).yaml:\(item.message)\n")
        }
    }

    static let scriptsSchema = """
        types:
          Personne:
            primaryKey: 名前
            properties:
              名前: string
              café: int
              naïve: list<Chien>
              ünïcode_٣: string?
              ın: int?
          Chien:
            properties:
              nom: string
              maîtres: { linkingObjects: Personne.naïve }
        """

    @Test func namesInAnyScriptAreStoredQueriedExportedAndRoundTripped() throws {
        let realm = try HostileRealm(schema: Self.scriptsSchema, seed: nil)
        #expect(try realm.run(["schema", "r.realm"]).stdout == "schemaVersion: 0\n" + Self.scriptsSchema + "\n")
        let documents = """
            [{"名前": "太郎", "café": 3, "naïve": [{"nom": "Rex"}], "ünïcode_٣": "x", "ın": 1},
             {"名前": "花子", "café": 5, "naïve": [{"nom": "Fido"}]}]
            """
        try realm.write("p.json", Array(documents.utf8))
        let exported = try realm.expectRoundTrip("p.json", ["--type", "Personne"])
        #expect(exported.contains(#"{"$type":"Personne","名前":"太郎","café":3,"naïve":[{"nom":"Rex"}],"ünïcode_٣":"x","ın":1}"#))
        let query = try realm.run([
            "export", "r.realm", "--type", "Personne", "--where", "名前 == '太郎' AND café > 1 AND ünïcode_٣ == 'x' AND ın == 1",
        ])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout == "[\n" + #"{"名前":"太郎","café":3,"naïve":[{"nom":"Rex"}],"ünïcode_٣":"x","ın":1}"# + "\n]\n")
        let backlinks = try realm.run(["export", "r.realm", "--type", "Chien", "--where", "ANY maîtres.café == 5", "--sort", "nom DESC"])
        #expect(backlinks.stdout == "[\n" + #"{"nom":"Fido"}"# + "\n]\n")
        let yaml = try realm.run(["export", "r.realm", "--type", "Personne", "--sort", "café DESC", "--format", "yaml"])
        #expect(yaml.stdout.hasPrefix("---\n名前: 花子\ncafé: 5\n"))
        try realm.write("p.yaml", Array(yaml.stdout.utf8))
        let copy = try HostileRealm("copy.realm", schema: Self.scriptsSchema, seed: nil)
        let imported = try copy.run(["import", "copy.realm", realm.folder.appendingPathComponent("p.yaml").path, "--type", "Personne"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try copy.export() == exported)
    }

    /// A property name from Realm's own tests, and a type named with an emoji.
    static let realmNamesSchema = """
        types:
          Hund🐶:
            primaryKey: 柱колоéнǢкƱаم👍
            properties:
              柱колоéнǢкƱаم👍: string
              ✓: int
              freunde·liste: list<Hund🐶>
        """

    @Test func namesAsRealmTakesThemWorkInSchemasPredicatesDocumentsAndPaths() throws {
        let realm = try HostileRealm(schema: Self.realmNamesSchema, seed: nil)
        #expect(try realm.run(["schema", "r.realm"]).stdout == "schemaVersion: 0\n" + Self.realmNamesSchema + "\n")
        let documents = """
            [{"柱колоéнǢкƱаم👍": "a/b", "✓": 1, "freunde·liste": [{"柱колоéнǢкƱаم👍": "c", "✓": 2}]}]
            """
        try realm.write("h.json", Array(documents.utf8))
        let exported = try realm.expectRoundTrip("h.json", ["--type", "Hund🐶"])
        #expect(exported.contains(#"{"$type":"Hund🐶","柱колоéнǢкƱаم👍":"a/b","✓":1,"freunde·liste":["c"]}"#))
        let query = try realm.run(["export", "r.realm", "--type", "Hund🐶", "--where", "✓ > 1 OR ANY freunde·liste.✓ == 5"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout == "[\n" + #"{"柱колоéнǢкƱаم👍":"c","✓":2,"freunde·liste":[]}"# + "\n]\n")
        let misspelt = try realm.run(["export", "r.realm", "--type", "Hund🐶", "--where", "柱колоéнǢкƱаم == 'c'"])
        #expect(misspelt.stderr == "kura: where: column 1: error: Hund🐶 has no property '柱колоéнǢкƱаم' (did you mean '柱колоéнǢкƱаم👍'?)\n")

        let server = try ServerProcess(in: realm.folder, ["r.realm"])
        let type = "Hund%F0%9F%90%B6"
        let one = try server.request("/v1/realms/r/objects/\(type)/a%2Fb")
        #expect(one.status == 200, "\(one.text)")
        #expect(one.text == #"{"柱колоéнǢкƱаم👍":"a/b","✓":1,"freunde·liste":["c"]}"# + "\n")
        let page = try server.request("/v1/realms/r/objects/\(type)?where=%E2%9C%93%20%3E%201")
        #expect(page.status == 200, "\(page.text)")
        #expect(page.text.contains(#""count":1"#))
        let schema = try server.request("/v1/realms/r/schema")
        #expect(schema.text.contains("柱колоéнǢкƱаم👍"))
    }

    @Test func namesThatAreNotInNormalizationFormCAreRefused() throws {
        let folder = try Fixtures.temporaryDirectory()
        let decomposed = "cafe\u{301}"
        let result = try initialize(Self.oneProperty("T", decomposed), in: folder)
        #expect(result.status == 65)
        #expect(result.stderr == """
            kura: s.yaml:4:14: error: T: invalid property name '\(decomposed)': names must be in Unicode normalization form C (NFC), \
            as editors usually write them

            """)
        let long = try initialize(Self.oneProperty("T", String(repeating: "名", count: 22)), in: folder, as: "l")
        #expect(long.stderr.hasSuffix("names are at most 63 bytes of UTF-8\n"))
    }
}
