import Foundation
import Kura

/// The samples of "Observing changes", on a realm of their own.
func observingChanges() async throws {
    let realm = try Realm(path: "observed.realm", schema: try Schema(models: [Person.self]))
    try realm.write {
        try realm.add(Person(name: "Ana", dogs: [Dog(name: "Rex", age: 3), Dog(name: "Fido", age: 1)]))
    }

    let dogs = try realm.objects(Dog.self).sorted(byKeyPath: "name")
    var updates = 0
    for try await change in dogs.changes {
        switch change {
        case .initial(let dogs):
            print("initial:", dogs.map(\.name))
            try realm.write { try realm.add(Dog(name: "Bella", age: 1)) }
        case .update(let dogs, let deletions, let insertions, let modifications):
            print("update:", dogs.map(\.name), "deleted:", deletions, "inserted:", insertions, "modified:", modifications)
            updates += 1
            if updates == 1 { try realm.write { try realm.delete(try dogs.filter("name == %@", "Bella")) } }
        case .error(let error):
            print("observing failed:", error)
        }
        if updates == 2 { break }                        // ends the observation
    }
    // initial: ["Fido", "Rex"]
    // update: ["Bella", "Fido", "Rex"] deleted: [] inserted: [0] modified: []
    // update: ["Fido", "Rex"] deleted: [0] inserted: [] modified: []

    let queue = DispatchQueue(label: "observers")         // a serial queue
    let delivered = DispatchSemaphore(value: 0)           // only so that this sample waits for it
    let token = dogs.observe(on: queue) { change in
        if case .update(let dogs, let deletions, let insertions, let modifications) = change {
            let name = (try? dogs[modifications.first ?? 0].name) ?? "?"
            print("deleted:", deletions, "inserted:", insertions, "modified:", modifications, name)
        }
        delivered.signal()                                  // after .initial and each .update
    }
    _ = delivered.wait(timeout: .now() + 5)                 // the .initial
    if let rex = try realm.objects(Dog.self).filter("name == %@", "Rex").first {
        rex.age = 4
        try realm.write { try realm.add(rex, update: .modified) }
    }
    _ = delivered.wait(timeout: .now() + 5)
    token.invalidate()
    // deleted: [] inserted: [] modified: [1] Rex

    guard let ana = try realm.objects(Person.self).first, let id = ana.id else { return }
    let personToken = try realm.observe(Person.self, primaryKey: .int(Int64(id)), on: queue) { change in
        switch change {
        case .change(let person, let properties):
            let described = properties.map { "\($0.name): \($0.oldValue ?? .null) -> \($0.newValue ?? .null)" }
            print(person.name, described.joined(separator: ", "))
        case .deleted:
            print("deleted")
        case .error(let error):
            print("observing failed:", error)
        }
        delivered.signal()
    }
    ana.name = "Ana Maria"
    try realm.write { try realm.add(ana, update: .modified) }
    _ = delivered.wait(timeout: .now() + 5)
    try realm.write { try realm.delete(ana) }
    _ = delivered.wait(timeout: .now() + 5)
    personToken.invalidate()
    // Ana Maria name: "Ana" -> "Ana Maria"
    // deleted

    let fido = try realm.objects("Dog").filter("name == %@", "Fido")
    if let handle = try fido.first {
        try realm.write { try realm.delete(handle) }
        do {
            _ = try handle["name"]
        } catch let error as KuraError where error.code == .store(.objectDeleted) {
            print(error.message)
        }
    }
    // object Dog#2 has been deleted or was never stored

    let version = try realm.changeVersion
    try realm.write { try realm.add(Dog(name: "Max", age: 5)) }
    try realm.write { try realm.delete(try realm.objects(Dog.self).filter("name == %@", "Max")) }
    for change in try realm.changes(after: version) {
        for (type, changes) in change.types.sorted(by: { $0.key < $1.key }) {
            print(change.version - version, type, "inserted:", changes.inserted.flatMap { Array($0) }, "deleted:", changes.deleted.map(\.id))
        }
    }
    // 1 Dog inserted: [4] deleted: []
    // 2 Dog inserted: [] deleted: [4]
}
