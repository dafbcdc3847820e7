// The commands that act on a realm: `create`, `dump` and `delete`.
import Kura

/// `create REALM TYPE COUNT PREFIX`: creates COUNT objects `{name: PREFIX-i}`, one transaction each.
func runCreate(_ arguments: [String]) {
    guard arguments.count == 4, let count = Int(arguments[2]) else { fail("usage: kura-probe create REALM TYPE COUNT PREFIX") }
    let (path, type, prefix) = (arguments[0], arguments[1], arguments[3])
    do {
        let realm = try Realm(path: path)
        for index in 0..<count {
            try realm.write { try realm.create(type, value: ["name": .string("\(prefix)-\(index)")]) }
        }
    } catch {
        fail("\(error)")
    }
}

/// `dump REALM`: prints every object of every non-asymmetric, non-embedded type, one per line.
func runDump(_ arguments: [String]) {
    guard arguments.count == 1 else { fail("usage: kura-probe dump REALM") }
    do {
        let realm = try Realm(path: arguments[0])
        for type in realm.schema.types where !type.isAsymmetric && !type.isEmbedded {
            for object in try realm.objects(type.name) {
                let values = try object.values()
                let fields = values.keys.sorted().map { "\($0)=\(values[$0] ?? .null)" }.joined(separator: " ")
                print("\(object.ref) \(fields)")
            }
        }
    } catch {
        fail("\(error)")
    }
}

/// `delete REALM TYPE [PREDICATE]`: deletes the objects of TYPE matching PREDICATE (all without one)
/// through the library's `delete(_:where:)` in one write, and prints `deleted=N`.
func runDelete(_ arguments: [String]) {
    guard arguments.count == 2 || arguments.count == 3 else { fail("usage: kura-probe delete REALM TYPE [PREDICATE]") }
    do {
        let realm = try Realm(path: arguments[0])
        let deleted = try realm.write { try realm.delete(arguments[1], where: arguments.count == 3 ? arguments[2] : nil) }
        print("deleted=\(deleted)")
    } catch {
        fail("\(error)")
    }
}
