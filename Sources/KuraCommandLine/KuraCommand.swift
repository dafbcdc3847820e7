import ArgumentParser
import Foundation
import Kura

/// The `kura` command: Realm-style object stores with strict JSON/YAML import, export and copy.
@main
struct KuraCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kura",
        abstract: "A Realm-style object store on SQLite, with strict JSON/YAML import, export and copy.",
        discussion: """
            A realm is one SQLite file holding typed objects described by a YAML schema (see README.md). \
            Defaults for the realm path and schema file come from config.yaml in the working directory, \
            or from the file given with --config; flags override them.

            A first session: kura init (creates the realm config.yaml names), kura import \
            Samples/people.json --type Person, kura export --output all.json, kura copy \
            Samples/samples.realm other.realm.
            """,
        version: "0.1.0",
        subcommands: [InitCommand.self, ImportCommand.self, ExportCommand.self, CopyCommand.self, DeleteCommand.self, SchemaCommand.self,
                      MigrateCommand.self, CheckCommand.self, ServeCommand.self, TokenCommand.self]
    )

    /// Sets SQLite up before anything uses it, then runs the command line.
    static func main() {
        // A write past the file size limit (`ulimit -f`) then fails with EFBIG, an I/O error the
        // command reports with what was committed, instead of the signal killing it.
        signal(SIGXFSZ, SIG_IGN)
        SQLiteLibrary.prepareForBulkWriting()
        main(nil)
    }
}
