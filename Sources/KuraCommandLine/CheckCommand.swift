import ArgumentParser
import Foundation
import Kura
import KuraClient

/// `kura check [REALM] [--format text|json]`: checks a realm and reports what is broken.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a realm: its engine's integrity check, then Kura's own invariants.",
        discussion: """
            Reads the realm without writing to it (a file stays byte for byte the same) and checks: \
            SQLite's integrity check (for a PostgreSQL realm, that its indexes are valid and its tables \
            and columns are there with their types); the stored schema, the metadata tables and every type's tables and \
            columns; links (link properties, collection elements and links in mixed values) that name \
            objects that do not exist; embedded objects with no parent or more than one; collection \
            rows whose owner is gone; list positions 0 to count - 1; nested mixed lists and maps that \
            nothing refers to, or that two values share; unique primary keys; nulls where the schema \
            requires a value; values that do not fit their type or mixed tag; and identifier counters \
            (object ids, autoIncrement keys, mixed containers) at or above the highest in use.

            A healthy realm prints one line and exits 0. Otherwise each problem is printed on a line \
            of its own, at most 20 of one kind at one place and a line counting the others, then the \
            number of problems, and the exit code is 65. A missing file exits 66, a file that is not a \
            realm 65. --format json prints the report as a JSON object for scripts.

            Example: kura check Samples/samples.realm
              Samples/samples.realm: ok (29 objects in 5 types, schema version 1)
            """)

    /// How the report is printed.
    enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var options: RealmOptions

    @OptionGroup var token: TokenOption

    @Option(name: .long, help: "text (one line per problem) or json (the report as one JSON object).")
    var format: ReportFormat = .text

    func run() throws {
        var healthy = true
        try CommandFailure.report {
            let realmPath = try options.realmPath(try options.settings())
            let report: CheckReport
            if RemoteRealms.names(realmPath) {
                let client = try RemoteRealms.client(realmPath, tokenFile: token.tokenFile)
                report = try RemoteRealms.wait { try await client.check() }
            } else {
                try RealmPaths.requireRealm(realmPath)
                report = try RealmChecker(path: realmPath).check()
            }
            healthy = report.isHealthy
            switch format {
            case .text:
                print(report)
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            }
        }
        if !healthy { throw ExitCode(CommandFailure.Code.badData.rawValue) }
    }
}
