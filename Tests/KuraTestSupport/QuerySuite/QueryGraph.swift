/// The query suite's object graph as plain Swift values: what the generator makes, what the
/// documents are written from, and what each case's expected answer is worked out on. Nothing here
/// comes from Kura: dates are milliseconds since 1970 and decimals whole cents, so every expected
/// comparison is exact.
package struct QueryGraph: Sendable {
    package struct Address: Sendable, Equatable {
        package var city: String?
        package var zip: Int?
    }

    /// A value of a mixed property.
    package indirect enum Mixed: Sendable, Equatable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(String)
        case date(milliseconds: Int64)
        case decimal(cents: Int)
        case objectId(String)
        case uuid(String)
        case binary([UInt8])
        /// A link to the dog with this primary key.
        case dog(Int)
        case list([Mixed])
        /// A nested map, its entries in the order they are written.
        case map([(key: String, value: Mixed)])

        package static func == (lhs: Mixed, rhs: Mixed) -> Bool {
            switch (lhs, rhs) {
            case (.map(let left), .map(let right)):
                left.count == right.count && zip(left, right).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            case (.null, .null): true
            case (.bool(let left), .bool(let right)): left == right
            case (.int(let left), .int(let right)): left == right
            case (.double(let left), .double(let right)): left == right
            case (.string(let left), .string(let right)): left == right
            case (.date(let left), .date(let right)): left == right
            case (.decimal(let left), .decimal(let right)): left == right
            case (.objectId(let left), .objectId(let right)), (.uuid(let left), .uuid(let right)): left == right
            case (.binary(let left), .binary(let right)): left == right
            case (.dog(let left), .dog(let right)): left == right
            case (.list(let left), .list(let right)): left == right
            default: false
            }
        }
    }

    package struct Person: Sendable, Identifiable {
        package var id: Int
        package var name: String
        package var age: Int
        package var height: Double?
        package var born: Int64?
        package var budgetCents: Int?
        /// A set: distinct elements, in the order the document writes them.
        package var tags: [String]
        /// Map entries in the order the document writes them; keys are distinct.
        package var nick: [(key: String, value: String)]
        package var scores: [Int]
        /// `nil` when the document leaves the property out, which reads as null.
        package var extra: Mixed?
        package var extras: [Mixed]
        package var dogs: [Int]
        package var bestFriend: Int?
        package var address: Address?
        package var pastAddresses: [Address]

        /// The map's value under `key`, null when it has none.
        package func nick(_ key: String) -> String? { nick.first { $0.key == key }?.value }
        package var nickValues: [String] { nick.map(\.value) }
        package var nickKeys: [String] { nick.map(\.key) }
        /// The mixed property as a query reads it: a left-out value is null.
        package var extraValue: Mixed { extra ?? .null }
    }

    package struct Dog: Sendable, Identifiable {
        package var id: Int
        package var name: String
        package var age: Int
        package var toys: [Int]
    }

    package struct Toy: Sendable, Identifiable {
        package var id: Int
        package var name: String
        package var price: Double
        package var costCents: Int?
    }

    package let people: [Person]
    package let dogs: [Dog]
    package let toys: [Toy]
    private let personIndex: [Int: Int]
    private let dogIndex: [Int: Int]
    private let toyIndex: [Int: Int]

    package init(people: [Person], dogs: [Dog], toys: [Toy]) {
        self.people = people
        self.dogs = dogs
        self.toys = toys
        personIndex = Dictionary(uniqueKeysWithValues: people.enumerated().map { ($1.id, $0) })
        dogIndex = Dictionary(uniqueKeysWithValues: dogs.enumerated().map { ($1.id, $0) })
        toyIndex = Dictionary(uniqueKeysWithValues: toys.enumerated().map { ($1.id, $0) })
    }

    package func person(_ id: Int?) -> Person? { id.flatMap { personIndex[$0] }.map { people[$0] } }
    package func dog(_ id: Int) -> Dog? { dogIndex[id].map { dogs[$0] } }
    package func toy(_ id: Int) -> Toy? { toyIndex[id].map { toys[$0] } }

    /// The person's best friend, null when the link is.
    package func bestFriend(of person: Person) -> Person? { self.person(person.bestFriend) }
    package func dogs(of person: Person) -> [Dog] { person.dogs.compactMap(dog) }
    package func toys(of dog: Dog) -> [Toy] { dog.toys.compactMap(toy) }

    /// `Dog.owners` (and `@links.Person.dogs`): the people whose `dogs` hold the dog.
    package func owners(of dog: Dog) -> [Person] { people.filter { $0.dogs.contains(dog.id) } }
    /// `@links.Dog.toys`: the dogs whose `toys` hold the toy.
    package func holders(of toy: Toy) -> [Dog] { dogs.filter { $0.toys.contains(toy.id) } }
    /// `@links.Person.bestFriend`: the people whose best friend the person is.
    package func admirers(of person: Person) -> [Person] { people.filter { $0.bestFriend == person.id } }

    /// `@links.@count` of a dog: every link to it, from `Person.dogs` and from mixed values.
    package func linkCount(of dog: Dog) -> Int {
        people.reduce(0) { count, person in
            let listed = person.dogs.filter { $0 == dog.id }.count
            let mixed = ([person.extraValue] + person.extras).filter { $0 == .dog(dog.id) }.count
            return count + listed + mixed
        }
    }
}
