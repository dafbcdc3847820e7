// A realm used from an actor and from other tasks at once. Run by ActorExampleTests; makes
// kennel.realm in the folder given as the argument, or in a new temporary folder.
import Foundation
import Kura

let folder = CommandLine.arguments.dropFirst().first
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("kura-kennel-\(UUID().uuidString)").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

let kennel = try Kennel(path: folder + "/kennel.realm")
try await withThrowingTaskGroup(of: Void.self) { group in
    for index in 1...8 {
        group.addTask { try await kennel.admit(Dog(name: "Dog \(index)", age: index)) }
    }
    try await group.waitForAll()
}
print(try await kennel.admit(all: [Dog(name: "Rex", age: 9), Dog(name: "Fido", age: 2)]))
print(try await kennel.names(olderThan: 6))

// The actor's realm, read from a task outside it: Results of Sendable models are Sendable too.
let realm = kennel.realm
let oldest = try await Task.detached {
    try realm.objects(Dog.self).sorted(byKeyPath: "age", ascending: false).first?.name
}.value
print(oldest ?? "no dog")
