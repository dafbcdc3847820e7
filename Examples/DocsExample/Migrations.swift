import Foundation
import Kura

/// Version 1 of the getting-started schema: `Person.name` is `fullName`, `Dog.age` a string.
let version1 = """
    schemaVersion: 1
    types:
      Person:
        primaryKey: id
        properties:
          id: { type: int, autoIncrement: true }
          fullName: string
          dogs: list<Dog>
          address: Address?
      Dog:
        properties:
          name: string
          age: string
          owners: { linkingObjects: Person.dogs }
      Address:
        embedded: true
        properties:
          street: string?
          city: string?
          country: string?
          postalCode: string?
    """

/// The samples of "Migrations".
func migrations() throws {
    do {
        let realm = try Realm(path: "app.realm", schema: try Schema(models: [Person.self]))
        try realm.write { try realm.add(Person(name: "Ana", dogs: [Dog(name: "Rex", age: 3)])) }
    }

    let newSchema = try Schema(yaml: version1)
    print(try Realm.migrationPlan(for: Realm.Configuration(path: "app.realm", schema: newSchema)))

    let config = Realm.Configuration(path: "app.realm", schema: newSchema) { migration, oldVersion in
        if oldVersion < 1 {
            try migration.renameProperty(onType: "Person", from: "name", to: "fullName")
            try migration.enumerateObjects(ofType: "Dog") { old, new in
                guard case .int(let age)? = try old?["age"] else { return }
                try new?.setValue(.string("\(age) years"), forKey: "age")
            }
        }
    }
    let realm = try Realm(configuration: config)            // migrates in one transaction
    print(try realm.objects("Person")[0]["fullName"], try realm.objects("Dog")[0]["age"])   // "Ana" "3 years"
}
