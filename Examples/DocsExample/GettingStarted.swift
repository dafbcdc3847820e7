import Foundation
import Kura

/// The landing page's sample.
func landingPage() throws {
    let realm = try Realm(path: "dogs.realm", schema: try Schema(models: [Person.self]))
    try realm.write {
        try realm.add(Person(name: "Ana", dogs: [Dog(name: "Rex", age: 3)]))
    }
    let puppies = try realm.objects(Dog.self).filter("age < %@", 2)
    print(try puppies.count)
}

/// The samples of "Getting Started".
func gettingStarted() throws {
    let realm = try Realm(path: "getting-started.realm", schema: try Schema(models: [Person.self]))
    let rex = Dog(name: "Rex", age: 3), fido = Dog(name: "Fido", age: 1)
    let ana = Person(name: "Ana", dogs: [rex, fido], address: Address(city: "Lisbon", country: "Portugal"))
    try realm.write {
        try realm.add(ana)                          // Ana, her address and both dogs
    }

    let dogs = try realm.objects(Dog.self)          // lazy: nothing is read yet
    print(try dogs.count)                           // 2
    for dog in try dogs.sorted(byKeyPath: "name") {
        print(dog.name, dog.age, dog.owners.map(\.name))
    }
    // Fido 1 ["Ana"]
    // Rex 3 ["Ana"]

    if let stored = try realm.objects(Person.self).filter("name == %@", "Ana").first {
        stored.dogs[0].age += 1                     // Rex turns 4
        try realm.write {
            try realm.add(stored, update: .modified)    // written back in place: no new dog
        }
    }
    print(try realm.objects(Dog.self).filter("age == 4").count)   // 1

    try realm.write {
        try realm.delete(fido)                      // the instance added above is that stored dog
    }
    print(try realm.objects(Dog.self).map(\.name))  // ["Rex"]
}
