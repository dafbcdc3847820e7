import Foundation

/// What one run of `kura-crash` does, from its command line.
struct HarnessOptions {
    static let usage = """
        usage: kura-crash [--trials N] [--seed S] [--size DOCS] [--batch-size B] [--jobs KINDS]
                          [--trial T] [--kura PATH] [--work DIR] [--keep]
          --trials N      trials in all, rotating among the job kinds (default 60)
          --seed S        seeds the kill moments; a run is replayed with the same seed (default: from the clock)
          --size DOCS     documents imported and copied; a migration moves 8 x DOCS entries (default 600)
          --batch-size B  documents per batch of the batched import (default DOCS / 6)
          --jobs KINDS    comma-separated: import-skip, import-stop, copy-whole, copy-new, copy-update,
                          copy-subset, migrate, or import, copy, all (default all)
          --trial T       runs only trial T of the seeded sequence (to replay a failure)
          --kura PATH     the kura binary killed (default: the kura next to this executable)
          --work DIR      where realms and inputs go (default: a fresh temporary folder, removed after)
          --keep          keep the work folder (it is always kept when a trial fails)
        """

    var trials = 60
    var seed = UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000
    var size = 600
    var batchSize: Int?
    var jobs = JobKind.allCases
    var onlyTrial: Int?
    var kura: String
    var work: String?
    var keep = false

    /// Documents per batch of the batched import: six batches by default.
    var batch: Int { batchSize ?? max(1, size / 6) }

    /// Parses the arguments after the program's name, or explains what is wrong.
    init(_ arguments: [String]) throws(UsageError) {
        kura = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("kura").path
        var remaining = arguments[...]
        func value(of flag: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst() else { throw UsageError("\(flag) needs a value") }
            return value
        }
        func number(of flag: String, least: Int) throws(UsageError) -> Int {
            let text = try value(of: flag)
            guard let number = Int(text), number >= least else { throw UsageError("\(flag) needs a whole number of at least \(least), not '\(text)'") }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--trials": trials = try number(of: argument, least: 1)
            case "--seed": seed = UInt64(try number(of: argument, least: 0))
            case "--size": size = try number(of: argument, least: 12)
            case "--batch-size": batchSize = try number(of: argument, least: 1)
            case "--trial": onlyTrial = try number(of: argument, least: 0)
            case "--jobs": jobs = try JobKind.parseList(try value(of: argument))
            case "--kura": kura = try value(of: argument)
            case "--work": work = try value(of: argument)
            case "--keep": keep = true
            case "--help", "-h": throw UsageError(nil)
            default: throw UsageError("unexpected argument '\(argument)'")
            }
        }
        if let onlyTrial, onlyTrial >= trials { trials = onlyTrial + 1 }
    }
}

/// A command line `kura-crash` cannot run; `nil` asks for the usage alone.
struct UsageError: Error {
    let message: String?

    init(_ message: String?) { self.message = message }
}
