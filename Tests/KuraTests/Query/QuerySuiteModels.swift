import Foundation
import Kura

/// Class models of the query suite's schema, for its queries written as typed queries.
enum SuiteModels {
    final class Toy: KuraObject {
        var id: Int
        var name: String
        var price: Double
        var cost: Decimal128?
        static var typeName: String { "Toy" }
        static var primaryKey: String? { "id" }
    }

    final class Dog: KuraObject {
        var id: Int
        var name: String
        var age: Int
        var toys: [Toy]
        @Backlinks var owners: [Person]
        static var typeName: String { "Dog" }
        static var primaryKey: String? { "id" }
        static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Person.self, "dogs")] }
    }

    final class Person: KuraObject {
        var id: Int
        var name: String
        var age: Int
        var height: Double?
        var born: Date?
        var budget: Decimal128?
        var tags: Set<String>
        var nick: [String: String]
        var scores: [Int]
        var extra: Value
        var extras: [Value]
        var dogs: [Dog]
        @Link var bestFriend: Person?
        var address: Address?
        var pastAddresses: [Address]
        static var typeName: String { "Person" }
        static var primaryKey: String? { "id" }
    }

    struct Address: KuraObject {
        var city: String?
        var zip: Int?
        static var typeName: String { "Address" }
        static var isEmbedded: Bool { true }
    }
}
