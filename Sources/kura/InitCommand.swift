import ArgumentParser
import Kura

/// `kura init REALM --schema FILE`: creates a realm with a schema.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a realm from a schema file.",
        discussion: """
            If the realm exists already with the same schema, nothing changes. A newer schema that only \
            adds (new types, new optional or defaulted properties) is applied to it; other changes need \
            kura migrate.
            """)

    @OptionGroup var options: RealmOptions

    @Option(name: .long, help: "The YAML schema file (default: 'schema' from config.yaml).")
    var schema: String?

    func run() throws {
        try CommandFailure.report {
            let settings = try options.settings()
            let realmPath = try options.realmPath(settings)
            let schemaPath = try settings.require(schema, \.schema, what: "a schema file", flag: "--schema")
            let parsed = try Schema(contentsOfFile: schemaPath)
            let existed = FileManagerProbe.exists(realmPath)
            // What opening changes in an existing realm (additive changes only; opening refuses others).
            let plan = existed ? try? Realm.migrationPlan(for: Realm.Configuration(path: realmPath, schema: parsed)) : nil
            let opened = try Realm(path: realmPath, schema: parsed)
            let typeCount = opened.schema.types.count
            if let plan, !plan.isEmpty {
                print("\(realmPath): updated to schema version \(parsed.version), \(typeCount) types: "
                    + plan.changes.map(\.description).joined(separator: "; "))
            } else {
                print(existed
                    ? "\(realmPath): already a realm with this schema (version \(parsed.version), \(typeCount) types)"
                    : "\(realmPath): created with schema version \(parsed.version), \(typeCount) types")
            }
        }
    }
}
