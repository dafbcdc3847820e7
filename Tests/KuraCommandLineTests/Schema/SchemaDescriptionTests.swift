import Foundation
import Kura
import KuraTestSupport
import Testing

/// `print(schema)` shows the schema as YAML, the text `kura schema` prints.
@Suite struct SchemaDescriptionTests {
    @Test func aSchemaDescribesItselfAsTheYAMLKuraSchemaPrints() throws {
        let path = try Fixtures.realmPath()
        let schema = try Fixtures.samplesSchema()
        _ = try Realm(path: path, schema: schema)
        let printed = try Fixtures.run(Fixtures.executable("kura"), ["schema", path])
        #expect(printed.status == 0, "\(printed.stderr)")
        let realm = try Realm(path: path)
        #expect("\(realm.schema)\n" == printed.stdout)
        #expect(String(describing: schema) + "\n" == printed.stdout)
        #expect(printed.stdout.hasPrefix("schemaVersion: 1\ntypes:\n  DogToy:\n    properties:\n      name: string\n"))
        #expect(try Schema(yaml: "\(schema)") == schema)
    }
}
