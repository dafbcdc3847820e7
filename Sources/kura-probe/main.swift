// kura-probe: a small diagnostic tool that works on a realm through the Kura library, used by the
// tests to act on a realm from a second process.
//   kura-probe create REALM TYPE COUNT PREFIX   creates COUNT objects {name: PREFIX-i}, one transaction each
//   kura-probe dump REALM                        prints every object of every non-asymmetric type, one per line
import Foundation
import Kura

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("kura-probe: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: kura-probe create|dump REALM …") }
do {
    let realm = try Realm(path: arguments[2])
    switch arguments[1] {
    case "create":
        guard arguments.count == 6, let count = Int(arguments[4]) else { fail("usage: kura-probe create REALM TYPE COUNT PREFIX") }
        for index in 0..<count {
            try realm.write { try realm.create(arguments[3], value: ["name": .string("\(arguments[5])-\(index)")]) }
        }
    case "dump":
        for type in realm.schema.types where !type.isAsymmetric && !type.isEmbedded {
            for object in try realm.objects(type.name) {
                let values = try object.values()
                let fields = values.keys.sorted().map { "\($0)=\(values[$0] ?? .null)" }.joined(separator: " ")
                print("\(object.ref) \(fields)")
            }
        }
    default:
        fail("unknown command '\(arguments[1])'")
    }
} catch {
    fail("\(error)")
}
