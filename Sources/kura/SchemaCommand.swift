import ArgumentParser
import Kura

/// `kura schema REALM`: prints a realm's schema as YAML.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print a realm's schema in the YAML schema format.")

    @Argument(help: "The realm file (default: 'realm' from config.yaml).")
    var realm: String?

    @Option(name: .long, help: "A configuration file to read instead of ./config.yaml.")
    var config: String?

    func run() throws {
        try CommandFailure.report {
            let settings = try ConfigFile.load(explicitPath: config)
            let realmPath = try settings.require(realm, \.realm, what: "a realm path", flag: "REALM")
            guard FileManagerProbe.exists(realmPath) else {
                throw CommandFailure(.inputMissing, "no realm at '\(realmPath)'")
            }
            print(try Realm(path: realmPath).schema.yaml, terminator: "")
        }
    }
}
