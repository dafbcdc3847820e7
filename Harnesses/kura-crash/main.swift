// kura-crash: kills `kura import`, `copy` and `migrate` with SIGKILL at seeded random moments and
// checks that every realm left behind passes `kura check` (before anything recovers its WAL), opens,
// holds no duplicate keys, and is exactly one of the job's committed states: the realm before the
// job, after one of its batches, or after all of it. Never part of a document or of a transaction.
//
//   kura-crash [--trials N] [--seed S] [--size DOCS] [--jobs KINDS] [--kura PATH] ...   (--help)
//
// Prints one line per failed trial (with what replays it), one line per job kind (where the kills
// landed), and last exactly `N passed, N failed`. Exits 0 only when no trial failed.
import Foundation

do {
    let options = try HarnessOptions(Array(CommandLine.arguments.dropFirst()))
    exit(try CrashHarness(options: options).run() ? 0 : 1)
} catch let error as UsageError {
    if let message = error.message { FileHandle.standardError.write(Data("kura-crash: \(message)\n".utf8)) }
    FileHandle.standardError.write(Data((HarnessOptions.usage + "\n").utf8))
    exit(error.message == nil ? 0 : 64)
} catch {
    FileHandle.standardError.write(Data("kura-crash: \(error)\n".utf8))
    exit(70)
}
