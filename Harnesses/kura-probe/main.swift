// kura-probe: a small diagnostic tool built on the Kura library. The tests use it to act on a realm
// from a second process; the benchmarks use it to time reading and mapping documents.
//   kura-probe create REALM TYPE COUNT PREFIX   creates COUNT objects {name: PREFIX-i}, one transaction each
//   kura-probe dump REALM                        prints every object of every non-asymmetric type, one per line
//   kura-probe delete REALM TYPE [PREDICATE]     deletes the matching objects with realm.delete(_:where:), in one write
//   kura-probe map FILE --schema SCHEMA --type TYPE [--format json|jsonl|yaml] [--parse-only]
//                                                reads every document of FILE and maps it as TYPE (see MapCommand.swift)
import Foundation

let usage = """
    usage: kura-probe create REALM TYPE COUNT PREFIX
           kura-probe dump REALM
           kura-probe delete REALM TYPE [PREDICATE]
           kura-probe map FILE --schema SCHEMA --type TYPE [--format json|jsonl|yaml] [--parse-only]
    """

/// Prints `kura-probe: message` on standard error and exits with status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("kura-probe: \(message)\n".utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail(usage) }
let rest = Array(arguments.dropFirst())
switch command {
case "create": runCreate(rest)
case "dump": runDump(rest)
case "delete": runDelete(rest)
case "map": runMap(rest)
default: fail("unknown command '\(command)'\n\(usage)")
}
