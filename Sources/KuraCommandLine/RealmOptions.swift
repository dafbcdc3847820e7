import ArgumentParser

/// The options every command that works on one realm shares.
struct RealmOptions: ParsableArguments {
    @Argument(help: "The realm: a file, or a PostgreSQL URL (postgres://USER@HOST/DB?schema=NAME) (default: 'realm' from config.yaml).")
    var realm: String?

    @Option(name: .long, help: "A configuration file to read instead of ./config.yaml.")
    var config: String?

    /// The configuration file's defaults.
    func settings() throws -> ConfigFile { try ConfigFile.load(explicitPath: config) }

    /// The realm path from the argument or the configuration.
    func realmPath(_ settings: ConfigFile) throws -> String {
        try settings.require(realm, \.realm, what: "a realm path", flag: "REALM")
    }
}
