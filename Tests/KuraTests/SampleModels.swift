import Foundation
import Kura

// The model of Samples/schema.yaml declared once as Swift types.

struct DogToy: KuraObject, Equatable {
    var name: String
}

final class Dog: KuraObject {
    var name: String
    var age: Int
    var color: String?
    var currentCity: String?
    var citiesVisited: Set<String>
    var favoriteParksByCity: [String: String]
    var companion: Value
    var favoriteToy: DogToy?

    static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Person.self, "dogs")] }

    init(name: String, age: Int, color: String? = nil, citiesVisited: Set<String> = [], parks: [String: String] = [:],
         companion: Value = nil, favoriteToy: DogToy? = nil) {
        self.name = name
        self.age = age
        self.color = color
        self.citiesVisited = citiesVisited
        self.favoriteParksByCity = parks
        self.companion = companion
        self.favoriteToy = favoriteToy
    }
}

final class Person: KuraObject {
    var id: Int?
    var name: String
    var dogs: [Dog]
    var address: Address?
    @Link var bestFriend: Person?
    var createdAt: Date?

    static var primaryKey: String? { "id" }
    static var propertyOptions: [String: PropertyOptions] { ["id": .autoIncrement, "createdAt": .default(.now)] }

    init(id: Int? = nil, name: String, dogs: [Dog] = [], address: Address? = nil) {
        self.id = id
        self.name = name
        self.dogs = dogs
        self.address = address
    }
}

struct Address: KuraObject, Equatable {
    var street: String?
    var city: String?
    var country: String?
    var postalCode: String?

    static var isEmbedded: Bool { true }
}

struct DogClub: KuraObject {
    var name: String
    var members: [Person]
}

var sampleModels: [any KuraObject.Type] { [DogToy.self, Dog.self, Person.self, Address.self, DogClub.self] }
