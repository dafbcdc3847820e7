import ArgumentParser
import Foundation
import Kura

/// `kura migrate [REALM] --schema FILE [--dry-run]`: prints the plan of migrating a realm to a new
/// schema, then applies it in one transaction.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a realm to a new version of its schema.",
        discussion: """
            Prints the plan, type by type: added and removed types and properties, renames \
            (renamedFrom: in the schema), primary keys added, changed or removed, and the values \
            existing objects get. Then applies it in one transaction: a migration interrupted at any \
            point leaves the realm as it was.

            Adding a primary key: declare the new key with default: uuid or autoIncrement: true to \
            give existing objects fresh values, or make an existing property the key; if its values \
            are not unique, the duplicates are listed with their counts and nothing changes. A \
            property made required needs a default for the objects holding null. Removed types and \
            properties drop their values. A type change (int to string) is refused over stored values: \
            a Swift migration block converts them.

            The new schema must have a higher schemaVersion than the realm's for any change beyond \
            additive ones (new types, new optional or defaulted properties), which opening a realm \
            applies by itself. --dry-run prints the plan and checks the data without writing to the \
            realm file.

            Example: kura migrate diary.realm --schema Samples/diary-v2.yaml --dry-run
            """)

    @OptionGroup var options: RealmOptions

    @Option(name: .long, help: "The new YAML schema file (default: 'schema' from config.yaml).")
    var schema: String?

    @Flag(name: .customLong("dry-run"), help: "Print the plan and check the data; change nothing.")
    var dryRun = false

    func run() throws {
        try CommandFailure.report {
            let settings = try options.settings()
            let realmPath = try options.realmPath(settings)
            if RemoteRealms.names(realmPath) {
                throw CommandFailure(.usage, "a served realm migrates on its server: POST its schema to /v1/realms/NAME/migrate, or kura migrate there")
            }
            let schemaPath = try settings.require(schema, \.schema, what: "a schema file", flag: "--schema")
            try RealmPaths.requireRealm(realmPath)
            let configuration = Realm.Configuration(path: realmPath, schema: try Schema(contentsOfFile: schemaPath))
            let plan = try Realm.migrationPlan(for: configuration)
            if plan.isEmpty {
                print("\(realmPath): already at schema version \(plan.oldVersion) with this schema: nothing to migrate")
                return
            }
            print("\(realmPath): \(plan)")
            // The plan shows before a long migration starts, also when the output is a pipe.
            fflush(nil)
            try plan.check()
            if dryRun {
                print("dry run: nothing was written")
                return
            }
            let start = Date()
            try Realm.performMigration(for: configuration)
            print(String(format: "migrated to schema version %lld in %.2f s", plan.newVersion, Date().timeIntervalSince(start)))
        }
    }
}
