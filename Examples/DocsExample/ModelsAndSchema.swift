import Foundation
import Kura

/// The samples of "Models and Schema".
func modelsAndSchema() throws {
    let schema = try Schema(models: [Person.self])          // Dog and Address come along
    print(schema.types.map(\.name))                         // ["Person", "Dog", "Address"]

    let toys = try Schema(yaml: """
        schemaVersion: 1
        types:
          Toy:
            primaryKey: id
            properties:
              id: { type: int, autoIncrement: true }
              name: string
              price: { type: double, default: 0 }
              tags: set<string>
        """)
    let realm = try Realm(path: "toys.realm", schema: toys)
    try realm.write {
        try realm.create("Toy", value: ["name": "Ball", "tags": ["red", "round"]])
    }
    print(realm.schema)                                     // the YAML `kura schema toys.realm` prints
}
