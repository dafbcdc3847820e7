import Kura

// A realm used from an actor (the "Concurrency" article of the DocC catalog shows this file).

struct Dog: KuraObject, Sendable {
    var name: String
    var age: Int
}

/// Keeps the kennel's dogs in a realm. The realm handle is Sendable, so the actor can hold it and
/// hand it out; `asyncWrite` waits for the write lock off the actor, which meanwhile serves others.
actor Kennel {
    let realm: Realm

    init(path: String) throws {
        realm = try Realm(path: path, schema: try Schema(models: [Dog.self]))
    }

    /// Stores a dog in its own write transaction.
    func admit(_ dog: Dog) async throws {
        try await realm.asyncWrite { realm in
            try realm.add(dog)
        }
    }

    /// Stores several dogs in one transaction and returns how many dogs there are then.
    func admit(all dogs: [Dog]) async throws -> Int {
        try await realm.asyncWrite { realm in
            for dog in dogs { try realm.add(dog) }
            return try realm.objects(Dog.self).count
        }
    }

    /// The names of the dogs older than `age`, by name.
    func names(olderThan age: Int) throws -> [String] {
        try realm.objects(Dog.self).filter("age > %@", age).sorted(byKeyPath: "name").map(\.name)
    }
}
