// The models of the DocC catalog's "Getting Started" article (Sources/Kura/Kura.docc), verbatim:
// DocsExampleTests checks that every ```swift block of the catalog is in these files.
import Foundation
import Kura

final class Dog: KuraObject {
    var name: String
    var age: Int
    @Backlinks var owners: [Person]    // the people whose `dogs` hold this dog
    static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Person.self, "dogs")] }

    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
}

final class Person: KuraObject {
    var id: Int?                       // assigned from a counter when nil
    var name: String
    var dogs: [Dog]                    // a list of links
    var address: Address?              // an embedded object
    static var primaryKey: String? { "id" }
    static var propertyOptions: [String: PropertyOptions] { ["id": .autoIncrement] }

    init(name: String, dogs: [Dog] = [], address: Address? = nil) {
        self.name = name
        self.dogs = dogs
        self.address = address
    }
}

struct Address: KuraObject {
    var street: String?
    var city: String?
    var country: String?
    var postalCode: String?
    static var isEmbedded: Bool { true }
}
