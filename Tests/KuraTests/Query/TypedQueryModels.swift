import Foundation
import Kura

/// Class models of the graph `QueryLanguageTests` builds, for typed queries: a link that may form
/// a cycle (`@Link`) and declared backlinks (`@Backlinks`) among stored properties of every kind.
enum TypedGraph {
    final class Toy: KuraObject {
        var name: String
        var price: Double
        var cost: Decimal128?
        static var typeName: String { "Toy" }
    }

    final class Dog: KuraObject {
        var name: String
        var age: Int
        var toys: [Toy]
        var scores: [Int]
        @Backlinks var owners: [Person]
        static var typeName: String { "Dog" }
        static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Person.self, "dogs")] }
    }

    final class Person: KuraObject {
        var id: Int
        var name: String
        var age: Int
        var nick: [String: String]
        var tags: Set<String>
        var extra: Value
        var extras: [Value]
        var dogs: [Dog]
        @Link var bestFriend: Person?
        var address: Address?
        var budget: Decimal128?
        static var typeName: String { "Person" }
        static var primaryKey: String? { "id" }
    }

    struct Address: KuraObject {
        var city: String?
        static var typeName: String { "Address" }
        static var isEmbedded: Bool { true }
    }
}
