import Foundation
import Kura

/// The samples of "Queries".
func queries() throws {
    let realm = try Realm(path: "queries.realm", schema: try Schema(models: [Person.self]))
    try realm.write {
        try realm.add(Person(name: "Ana", dogs: [Dog(name: "Rex", age: 3), Dog(name: "Fido", age: 1)], address: Address(city: "Lisbon")))
        try realm.add(Person(name: "Bo", dogs: [Dog(name: "Max", age: 5)], address: Address(city: "Oslo")))
    }

    let dogs = try realm.objects(Dog.self)
    let older = try dogs.filter("age >= %@", 3).sorted(byKeyPath: "name")
    print(try older.count, older.map(\.name))               // 2 ["Max", "Rex"]
    let inLisbon = try dogs.filter("ANY owners.address.city == %@", "Lisbon")
    print(inLisbon.map(\.name))                             // ["Rex", "Fido"]
    let byAge = try dogs.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), SortDescriptor(keyPath: "name")])
    print(try byAge.first?.name ?? "", try byAge[1].name, try byAge.last?.name ?? "")   // Max Rex Fido
    let people = try realm.objects(Person.self).filter("%K BEGINSWITH %@ AND dogs.@count > 0", "name", "B")
    print(people.map(\.name))                               // ["Bo"]
    let puppyOwners = try realm.objects(Person.self).filter("SUBQUERY(dogs, $d, $d.age < $0).@count > 0", 2)
    print(puppyOwners.map(\.name))                          // ["Ana"]
    let firstByName = try realm.objects(Person.self).filter("dogs.@max.age > 2 SORT(name DESC) LIMIT(1)")
    print(firstByName.map(\.name))                          // ["Bo"]

    let typed = try realm.objects(Person.self).where { $0.dogs.count > 1 || $0.address.city == "Oslo" }
    print(typed.map(\.name))                                // ["Ana", "Bo"]
    let walked = try dogs.where { $0.age >= 3 && $0.owners.name.starts(with: "a", options: .caseInsensitive) }
    print(walked.map(\.name))                               // ["Rex"]
    print(try Query<Dog>.predicate { $0.age >= 3 && $0.owners.count > 0 }.text)   // age >= $0 AND owners.@count > $1
    let oldestFirst = try dogs.sorted(by: \.age, ascending: false).distinct(by: [\.name])
    print(oldestFirst.map(\.name))                          // ["Max", "Rex", "Fido"]

    let young = try realm.objects("Dog").filter("age < 3")  // the dynamic API: DynamicObject handles
    for dog in young {
        print(try dog["name"], try dog.linkingObjects("owners").count)
    }
    // "Fido" 1
}
