import Foundation
import Kura
import KuraTestSupport
import Testing

/// The YAML schema format: every construct parses, prints back the same, and bad files are refused
/// with `file:line:col` and what is wrong.
@Suite struct SchemaFileTests {
    @Test func theSamplesSchemaHasEveryConstruct() throws {
        let schema = try Fixtures.samplesSchema()
        #expect(schema.version == 1)
        #expect(schema.types.map(\.name) == ["DogToy", "Dog", "Person", "Address", "DogClub"])
        let dog = try #require(schema[type: "Dog"])
        #expect(dog[property: "color"]?.type == .optional(.string))
        #expect(dog[property: "citiesVisited"]?.type == .set(.string))
        #expect(dog[property: "favoriteParksByCity"]?.type == .map(.string))
        #expect(dog[property: "companion"]?.type == .mixed)
        #expect(dog[property: "favoriteToy"]?.type == .optional(.object("DogToy")))
        #expect(dog[property: "owners"]?.type == .linkingObjects(type: "Person", property: "dogs"))
        let person = try #require(schema[type: "Person"])
        #expect(person.primaryKey == "id")
        #expect(person[property: "id"]?.isAutoIncrement == true)
        #expect(person[property: "dogs"]?.type == .list(.object("Dog")))
        #expect(person[property: "createdAt"]?.defaultValue == .now)
        #expect(schema[type: "Address"]?.isEmbedded == true)
    }

    @Test func aSchemaPrintsBackToTheSameSchema() throws {
        let text = """
            schemaVersion: 7
            types:
              Log:
                asymmetric: true
                properties:
                  message: string
                  at: { type: date, default: "2024-01-02T03:04:05.678Z" }
              Item:
                primaryKey: code
                properties:
                  code: { type: uuid, default: uuid }
                  label: { type: string, default: "it's \\"new\\"\\n", indexed: true }
                  price: { type: decimal?, default: "1.50" }
                  weight: { type: float, default: 2.5 }
                  stock: { type: int, default: -3, renamedFrom: quantity }
                  raw: { type: data, default: !!binary AAEC }
                  ref: { type: objectId?, default: 507f1f77bcf86cd799439011 }
                  anything: { type: mixed, default: true }
                  sizes: list<int?>
                  related: map<Item?>
            """
        let schema = try Schema(yaml: text)
        let printed = schema.yaml
        #expect(try Schema(yaml: printed) == schema)
        #expect(printed.contains("      code: { type: \"uuid\", default: uuid }\n"))
        #expect(schema[type: "Item"]?[property: "raw"]?.defaultValue == .value(.data(Data([0, 1, 2]))))
        #expect(schema[type: "Item"]?[property: "label"]?.defaultValue == .value("it's \"new\"\n"))
    }

    static let badSchemas: [(yaml: String, message: String)] = [
        ("types:\n  Dog:\n    properties:\n      name: [string\n",
         "bad.yaml:5:1: error: invalid YAML: did not find expected ',' or ']' while parsing a flow sequence"),
        ("types:\n  Dog:\n    properties:\n      owner: Persn?\n",
         "bad.yaml:4:14: error: Dog.owner: unknown type 'Persn'"),
        ("types:\n  Toy:\n    properties:\n      name: string\n  Dog:\n    properties:\n      toy: Toy\n",
         "bad.yaml:7:12: error: Dog.toy: a to-one link is always optional: write 'Toy?'"),
        ("types:\n  Dog:\n    primaryKey: name\n    properties:\n      name: { type: string, autoIncrement: true }\n",
         "bad.yaml:5:13: error: Dog.name: autoIncrement is allowed only on an int primary key"),
        ("types:\n  Dog:\n    primaryKey: weight\n    properties:\n      weight: double\n",
         "bad.yaml:3:17: error: Dog.weight: a primary key must be int, string, uuid or objectId, not double"),
        ("types:\n  Dog:\n    primaryKey: tag\n    properties:\n      name: string\n",
         "bad.yaml:3:17: error: Dog: primary key 'tag' is not a property of the type"),
        ("types:\n  Spot:\n    embedded: true\n    primaryKey: id\n    properties:\n      id: int\n",
         "bad.yaml:4:17: error: Spot: an embedded type cannot have a primary key"),
        ("types:\n  Dog:\n    primarykey: id\n    properties:\n      id: int\n",
         "bad.yaml:3:5: error: unknown key 'primarykey' in type 'Dog' (expected 'primaryKey', 'embedded', 'asymmetric', 'properties')"),
        ("types:\n  Dog:\n    properties:\n      name: string\n      owners: { linkingObjects: Dog.name }\n",
         "bad.yaml:5:15: error: Dog.owners: 'Dog.name' does not link to 'Dog' (it is string)"),
        ("types:\n  Dog:\n    properties:\n      tags: list<int\n",
         "bad.yaml:4:13: error: Dog.tags: 'list<int' is not a type (expected a scalar such as int or string?, a type name, or list<…>, set<…>, map<…>)"),
        ("types:\n  my-type:\n    properties:\n      name: string\n",
         "bad.yaml:2:3: error: invalid type name 'my-type': names hold letters, digits, '_' and characters beyond ASCII other than spaces and controls, and do not start with a digit"),
        ("types:\n  Dog:\n    properties:\n      age: { type: int, default: three }\n",
         "bad.yaml:4:34: error: Dog.age: default 'three' is not a valid int"),
        ("types:\n  Dog:\n    properties:\n      when: { type: string, default: now }\n      at: { type: int, default: now }\n",
         "bad.yaml:5:33: error: Dog.at: default 'now' is not a valid int"),
        ("types:\n  Dog:\n    properties:\n      name: string\n      name: int\n",
         "bad.yaml:4:7: error: duplicate key 'name' in a mapping"),
        ("types:\n  Dog:\n    properties:\n      spots: set<Spot>\n  Spot:\n    embedded: true\n    properties:\n      x: int\n",
         "bad.yaml:4:14: error: Dog.spots: a set cannot hold embedded objects"),
        ("types:\n  Dog:\n    properties:\n      friends: list<Dog?>\n",
         "bad.yaml:4:16: error: Dog.friends: elements of object type in a list or set cannot be optional: write 'Dog'"),
        ("schemaVersion: one\ntypes: {}\n", "bad.yaml:1:16: error: schemaVersion must be an integer"),
        ("schemaVersion: 1\n", "bad.yaml:1:1: error: the schema has no 'types'"),
        ("", "bad.yaml:1:1: error: the schema file is empty"),
    ]

    /// An unknown type is reported where its name stands inside the property's type text.
    static let unknownTypeNames: [(property: String, message: String)] = [
        ("pets: list<Dgo>", "bad.yaml:4:18: error: Dog.pets: unknown type 'Dgo'"),
        ("pets: set<Dgo>", "bad.yaml:4:17: error: Dog.pets: unknown type 'Dgo'"),
        ("pets: map<Dgo?>", "bad.yaml:4:17: error: Dog.pets: unknown type 'Dgo'"),
        ("pets: map<Dgo>", "bad.yaml:4:17: error: Dog.pets: unknown type 'Dgo'"),
        ("pets: Dgo?", "bad.yaml:4:13: error: Dog.pets: unknown type 'Dgo'"),
        ("pets: Dgo", "bad.yaml:4:13: error: Dog.pets: unknown type 'Dgo'"),
        ("pets: \"list< Dgo >\"", "bad.yaml:4:20: error: Dog.pets: unknown type 'Dgo'"),
        ("pets: 'set<Dgo>'", "bad.yaml:4:18: error: Dog.pets: unknown type 'Dgo'"),
        ("pets: { indexed: false, type: list<Dgo> }", "bad.yaml:4:42: error: Dog.pets: unknown type 'Dgo'"),
        ("pets: {type: list<l>}", "bad.yaml:4:25: error: Dog.pets: unknown type 'l'"),
        ("pets: list<名前>", "bad.yaml:4:18: error: Dog.pets: unknown type '名前'"),
        ("é: list<Dgo>", "bad.yaml:4:15: error: Dog.é: unknown type 'Dgo'"),
        ("pets: { linkingObjects: Persn.dogs }", "bad.yaml:4:31: error: Dog.pets: linkingObjects names unknown type 'Persn'"),
    ]

    @Test(arguments: unknownTypeNames)
    func anUnknownTypeIsReportedAtItsName(_ example: (property: String, message: String)) throws {
        let yaml = "types:\n  Dog:\n    properties:\n      \(example.property)\n      name: string\n"
        do {
            _ = try Schema(yaml: yaml, file: "bad.yaml")
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.description == example.message)
        }
    }

    @Test(arguments: badSchemas)
    func aBadSchemaIsRefusedWithItsPosition(_ example: (yaml: String, message: String)) throws {
        do {
            _ = try Schema(yaml: example.yaml, file: "bad.yaml")
            Issue.record("accepted: \(example.yaml)")
        } catch {
            #expect(error.description == example.message)
        }
    }

    /// A type of `count` int properties, and `extra` lines of properties after them.
    static func wideSchema(_ count: Int, _ extra: String = "") -> String {
        "types:\n  Wide:\n    properties:\n" + (0..<count).map { "      p\($0): int\n" }.joined() + extra
    }

    @Test func aTypeWithMoreColumnsThanSQLiteHoldsIsRefusedAtItsName() throws {
        let rule = "(a column for its id, one for each property that is not a list, set, map or linkingObjects, two for a mixed one)"
        for (count, extra, columns) in [(16_000, "", 16_001), (1_999, "      any: mixed\n", 2_002)] {
            do {
                _ = try Schema(yaml: Self.wideSchema(count, extra), file: "wide.yaml")
                Issue.record("accepted \(count) properties")
            } catch {
                #expect(error.code == .schema(.tooManyColumns))
                #expect(error.description == "wide.yaml:2:3: error: type 'Wide' needs \(columns) columns, more than SQLite's limit of 2000 in one table \(rule)")
            }
        }
        // Lists and backlinks take no column of the type's table.
        let lists = (0..<100).map { "      l\($0): list<Wide>\n" }.joined() + "      back: { linkingObjects: Wide.l0 }\n"
        #expect(try Schema(yaml: Self.wideSchema(1_999, lists)).types[0].properties.count == 2_100)

        // At the limit exactly, a realm is made, and an object of every column goes in and comes out.
        let folder = try Fixtures.temporaryDirectory()
        let kura = Fixtures.executable("kura")
        try Self.wideSchema(1_997, "      any: mixed\n").write(to: folder.appendingPathComponent("full.yaml"), atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["init", "full.realm", "--schema", "full.yaml"], currentDirectory: folder).status == 0)
        let document = "{" + (0..<1_997).map { "\"p\($0)\": \($0)" }.joined(separator: ", ") + ", \"any\": \"x\"}"
        try document.write(to: folder.appendingPathComponent("w.json"), atomically: true, encoding: .utf8)
        let imported = try Fixtures.run(kura, ["import", "full.realm", "w.json", "--type", "Wide"], currentDirectory: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = try Fixtures.run(kura, ["export", "full.realm", "--type", "Wide", "--where", "p1996 == 1996"], currentDirectory: folder)
        #expect(exported.stdout.hasSuffix(#""p1996":1996,"any":"x"}"# + "\n]\n"), "\(exported.stderr)")

        try Self.wideSchema(2_000).write(to: folder.appendingPathComponent("wide.yaml"), atomically: true, encoding: .utf8)
        let refused = try Fixtures.run(kura, ["init", "wide.realm", "--schema", "wide.yaml"], currentDirectory: folder)
        #expect(refused.status == 65)
        #expect(refused.stderr == "kura: wide.yaml:2:3: error: type 'Wide' needs 2001 columns, more than SQLite's limit of 2000 in one table \(rule)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("wide.realm").path))
    }

    @Test func aMissingSchemaFileIsReportedAsUnreadable() {
        expectKuraError(.schema) { try Schema(contentsOfFile: "/nonexistent/schema.yaml") }
        do {
            _ = try Schema(contentsOfFile: "/nonexistent/schema.yaml")
        } catch {
            #expect(error.code == .schema(.unreadableFile))
            #expect(error.description == "error: cannot read schema file '/nonexistent/schema.yaml'")
        }
    }
}
