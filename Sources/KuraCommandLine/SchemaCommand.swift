import ArgumentParser
import Kura

/// `kura schema REALM`: prints a realm's schema as YAML.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print a realm's schema in the YAML schema format.")

    @OptionGroup var options: RealmOptions

    func run() throws {
        try CommandFailure.report {
            let realmPath = try options.realmPath(try options.settings())
            try RealmPaths.requireRealm(realmPath)
            print(try Realm(configuration: Realm.Configuration(path: realmPath, readOnly: true)).schema.yaml, terminator: "")
        }
    }
}
