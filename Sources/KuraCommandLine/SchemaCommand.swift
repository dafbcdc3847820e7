import ArgumentParser
import Kura
import KuraClient

/// `kura schema REALM`: prints a realm's schema as YAML.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print a realm's schema in the YAML schema format.")

    @OptionGroup var options: RealmOptions

    @OptionGroup var token: TokenOption

    func run() throws {
        try CommandFailure.report {
            let realmPath = try options.realmPath(try options.settings())
            if RemoteRealms.names(realmPath) {
                let client = try RemoteRealms.client(realmPath, tokenFile: token.tokenFile)
                print(try RemoteRealms.wait { try await client.schema() }.yaml, terminator: "")
                return
            }
            try RealmPaths.requireRealm(realmPath)
            print(try Realm(configuration: Realm.Configuration(path: realmPath, readOnly: true)).schema.yaml, terminator: "")
        }
    }
}
