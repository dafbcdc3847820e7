import Foundation
import Kura

/// The schema the migration sample of docs/migrations.md moves app.realm to: Person.name becomes
/// fullName, and Dog.age a string.
let version3 = """
    schemaVersion: 3
    types:
      Person:
        primaryKey: id
        properties:
          id: { type: int, autoIncrement: true }
          fullName: string
          dogs: list<Dog>
          address: Address?
          bestFriend: Person?
      Dog:
        properties:
          name: string
          age: string
          owners: { linkingObjects: Person.dogs }
      Address:
        embedded: true
        properties:
          city: string?

    """

/// Writes v3.yaml, runs the migration sample of docs/migrations.md, and prints what it made of the
/// objects.
func migrateToVersion3() throws {
    try version3.write(toFile: "v3.yaml", atomically: true, encoding: .utf8)

    let config = Realm.Configuration(path: "app.realm", schema: try Schema(contentsOfFile: "v3.yaml")) { migration, oldVersion in
        if oldVersion < 3 {
            try migration.renameProperty(onType: "Person", from: "name", to: "fullName")
            try migration.enumerateObjects(ofType: "Dog") { old, new in       // old values, new handle
                guard case .int(let age)? = try old?["age"] else { return }
                try new?.setValue(.string("\(age) years"), forKey: "age")    // int -> string, converted here
            }
        }
    }
    let realm = try Realm(configuration: config)        // migrates, in one transaction, when the version rose

    for person in try realm.objects("Person") {
        print("migrated:", try person["fullName"])
    }
    for dog in try realm.objects("Dog") {
        print("migrated:", try dog["name"], try dog["age"])
    }
}

/// Makes `folder` (or a new temporary folder) the current directory, so that the samples' relative
/// paths land there.
func enterWorkFolder(_ folder: String?) throws {
    let path = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("kura-readme-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    guard FileManager.default.changeCurrentDirectoryPath(path) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
}
