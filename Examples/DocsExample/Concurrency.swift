import Foundation
import Kura

/// The samples of "Concurrency" (the actor itself is Examples/ActorExample/Kennel.swift).
func concurrency() async throws {
    let realm = try Realm(path: "shared.realm", schema: try Schema(models: [Person.self]))
    try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 1...4 {
            group.addTask {
                try await realm.asyncWrite { realm in
                    _ = try realm.create("Dog", value: ["name": .string("Dog \(index)"), "age": .int(Int64(index))])
                }
            }
        }
        try await group.waitForAll()
    }
    print(try realm.objects("Dog").count)                   // 4

    let oldest = try await realm.asyncWrite { realm in
        let dogs = try realm.objects(Dog.self).sorted(byKeyPath: "age", ascending: false)
        return try dogs.first?.name ?? "none"
    }
    print(oldest)                                           // Dog 4

    let names = try realm.objects("Dog").sorted(byKeyPath: "name")   // Results<DynamicObject> is Sendable
    let count = try await Task.detached { try names.count }.value
    print(count)                                            // 4
}
