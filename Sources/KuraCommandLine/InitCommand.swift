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
            if RemoteRealms.names(realmPath) {
                throw CommandFailure(.usage, "a served realm is made on its server: kura init there, then serve it")
            }
            let schemaPath = try settings.require(schema, \.schema, what: "a schema file", flag: "--schema")
            let parsed = try Schema(contentsOfFile: schemaPath)
            try RealmPaths.requireFolder(forNew: realmPath)
            // What this process did, not what the file looked like before: several inits of one path
            // at once each report their own part (one creates, the others find it created).
            let opened = try Realm(path: realmPath, schema: parsed)
            let types = Counted(opened.schema.types.count, "type")
            switch opened.openOutcome {
            case .created:
                print("\(realmPath): created with schema version \(parsed.version), \(types)")
            case .updated(let changes):
                print("\(realmPath): updated to schema version \(parsed.version), \(types): "
                    + changes.map(\.description).joined(separator: "; "))
            case .opened:
                print("\(realmPath): already a realm with this schema (version \(parsed.version), \(types))")
            }
        }
    }
}
