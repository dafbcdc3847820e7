import ArgumentParser

/// The options every command that works on one realm shares.
struct RealmOptions: ParsableArguments {
    @Argument(help: "The realm: a file, a PostgreSQL URL (postgres://USER@HOST/DB?schema=NAME) or a served realm's URL (https://HOST:PORT/v1/realms/NAME) (default: 'realm' from config.yaml).")
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

/// The token option of the commands that reach served realms.
struct TokenOption: ParsableArguments {
    @Option(name: .customLong("token-file"), help: "For a served realm: a file whose first line is its token (default: the KURA_TOKEN variable).")
    var tokenFile: String?
}
