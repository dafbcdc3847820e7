import Foundation
import Kura

// The model of Samples/schema.yaml declared once as Swift types.

package struct DogToy: KuraObject, Equatable {
    package var name: String

    package init(name: String) { self.name = name }
}

package final class Dog: KuraObject {
    package var name: String
    package var age: Int
    package var color: String?
    package var currentCity: String?
    package var citiesVisited: Set<String>
    package var favoriteParksByCity: [String: String]
    package var companion: Value
    package var favoriteToy: DogToy?

    package static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Person.self, "dogs")] }

    package init(name: String, age: Int, color: String? = nil, citiesVisited: Set<String> = [], parks: [String: String] = [:],
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

package final class Person: KuraObject {
    package var id: Int?
    package var name: String
    package var dogs: [Dog]
    package var address: Address?
    @Link package var bestFriend: Person?
    package var createdAt: Date?

    package static var primaryKey: String? { "id" }
    package static var propertyOptions: [String: PropertyOptions] { ["id": .autoIncrement, "createdAt": .default(.now)] }

    package init(id: Int? = nil, name: String, dogs: [Dog] = [], address: Address? = nil) {
        self.id = id
        self.name = name
        self.dogs = dogs
        self.address = address
    }
}

package struct Address: KuraObject, Equatable {
    package var street: String?
    package var city: String?
    package var country: String?
    package var postalCode: String?

    package static var isEmbedded: Bool { true }

    package init(street: String? = nil, city: String? = nil, country: String? = nil, postalCode: String? = nil) {
        self.street = street
        self.city = city
        self.country = country
        self.postalCode = postalCode
    }
}

package struct DogClub: KuraObject {
    package var name: String
    package var members: [Person]

    package init(name: String, members: [Person]) {
        self.name = name
        self.members = members
    }
}

package var sampleModels: [any KuraObject.Type] { [DogToy.self, Dog.self, Person.self, Address.self, DogClub.self] }
