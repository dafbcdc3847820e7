// The Swift samples of docs/swift.md and the README, verbatim (ReadmeExampleTests checks that every
// ```swift block of those pages and docs/migrations.md appears in these files), then the migration
// sample. They make app.realm and v3.yaml in the folder given as the argument, or in a new
// temporary folder.
import Foundation

try enterWorkFolder(CommandLine.arguments.dropFirst().first)

import Kura

final class Person: KuraObject {
    var id: Int?                       // assigned from the counter when nil
    var name: String
    var dogs: [Dog]
    var address: Address?              // an embedded type: static var isEmbedded { true }
    @Link var bestFriend: Person?      // links that may form cycles
    static var primaryKey: String? { "id" }
    static var propertyOptions: [String: PropertyOptions] { ["id": .autoIncrement] }

    init(name: String, dogs: [Dog] = [], address: Address? = nil) {
        self.name = name
        self.dogs = dogs
        self.address = address
    }
}

final class Dog: KuraObject {
    var name: String
    var age: Int
    @Backlinks var owners: [Person]    // computed from Person.dogs, never stored
    static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Person.self, "dogs")] }

    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
}

struct Address: KuraObject {
    var city: String?
    static var isEmbedded: Bool { true }
}

let realm = try Realm(path: "app.realm", schema: try Schema(models: [Person.self]))  // Dog and Address come along
let rex = Dog(name: "Rex", age: 3)
let alice = Person(name: "Alice", dogs: [rex], address: Address(city: "Oslo")), bob = Person(name: "Bob", dogs: [rex])
alice.bestFriend = bob
bob.bestFriend = alice
try realm.write {
    try realm.add(alice)                                   // Alice, Rex, Bob, and the cycle between them
    try realm.create("Dog", value: ["name": "Fido", "age": 2])  // the dynamic API, by type name
}
let people = try realm.objects(Person.self)                // cycles come back as the same instances
for person in people {
    print(person.name, "likes", person.bestFriend?.name ?? "nobody", "and walks", person.dogs.map(\.name))
}
// Alice likes Bob and walks ["Rex"]
// Bob likes Alice and walks ["Rex"]
print(try people[0].bestFriend?.bestFriend === people[0])  // true: one instance per stored object
for dog in try realm.objects(Dog.self) {
    print(dog.name, "is walked by", dog.owners.map(\.name))
}
// Rex is walked by ["Alice", "Bob"]
// Fido is walked by []
let young = try realm.objects(Dog.self).filter("age < %@", 3).sorted(byKeyPath: "name")
print(try young.count, try young.first?.name ?? "none")    // 1 Fido: one COUNT, then one window read
print(realm.schema)                                        // the YAML `kura schema app.realm` prints

// The typed queries of docs/swift.md.
let walked = try realm.objects(Dog.self).where { $0.age >= 3 && $0.owners.count > 0 }   // age >= $0 AND owners.@count > $1
let inOslo = try realm.objects(Person.self).where { $0.dogs.where { $0.age < 3 }.count > 0 || $0.address.city == "Oslo" }
print(walked.map(\.name), inOslo.map(\.name))              // ["Rex"] ["Alice"]
print(try realm.objects(Dog.self).sorted(by: \.age, ascending: false).distinct(by: [\.name]).map(\.name))  // ["Rex", "Fido"]

// The "Observing changes" sample of docs/swift.md.
let dogs = try realm.objects(Dog.self).sorted(byKeyPath: "name")
var updates = 0
for try await change in dogs.changes {                     // or dogs.observe { change in … } with a token
    switch change {
    case .initial(let dogs):
        print("dogs:", dogs.map(\.name))
        try realm.write { try realm.create("Dog", value: ["name": "Bella", "age": 1]) }
    case .update(let dogs, let deletions, let insertions, let modifications):
        print("dogs:", dogs.map(\.name), "deleted:", deletions, "inserted:", insertions, "modified:", modifications)
        updates += 1
        if updates == 1 { try realm.write { try realm.delete(try dogs.filter("name == 'Bella'")) } }
    case .error(let error):
        print("observing failed:", error)
    }
    if updates == 2 { break }
}
// dogs: ["Fido", "Rex"]
// dogs: ["Bella", "Fido", "Rex"] deleted: [] inserted: [0] modified: []
// dogs: ["Fido", "Rex"] deleted: [0] inserted: [] modified: []

try migrateToVersion3()
