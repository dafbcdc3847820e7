import ArgumentParser
import KuraServer

/// `kura token new NAME --scope S [--realm R]...`: a new bearer token for `kura serve`.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Make bearer tokens for kura serve.",
        subcommands: [New.self])

    /// `kura token new`: prints a new token, then its entry for `server.tokens`.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new",
            abstract: "Print a new bearer token on the first line, then the entry to add under server.tokens.",
            discussion: """
                Only the token's SHA-256 goes into config.yaml; the token is shown this once. Scopes: read \
                (GET routes), write (also import, create, update, delete, copy), admin (also migrate). \
                Without --realm the token reaches every realm.

                Example: kura token new loader --scope write --realm zoo
                """)

        @Argument(help: "A name for the token, shown in problems and config.yaml (letters of any script, digits, '-', '_', '.').")
        var name: String

        @Option(name: .long, help: "read, write or admin.")
        var scope: String

        @Option(name: .long, help: "A realm the token may use; repeat for more (default: every realm).")
        var realm: [String] = []

        func validate() throws {
            for word in [name] + realm where !Self.isPlainName(word) {
                throw ValidationError("'\(word)' is not a plain name: use letters (of any script), digits, '-', '_' and '.'")
            }
            if AccessScope(rawValue: scope) == nil {
                throw ValidationError("--scope must be read, write or admin, not '\(scope)'")
            }
        }

        func run() throws {
            let token = Self.newToken()
            let entry = TokenEntry(
                name: name, sha256: SHA256Digest.hex(of: token), scope: AccessScope(rawValue: scope) ?? .read,
                realms: realm.isEmpty ? nil : realm)
            print(token)
            print("- \(entry.configLine)")
        }

        private static func isPlainName(_ word: String) -> Bool {
            !word.isEmpty && word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
        }

        /// `kura_` and 32 random bytes in base64url (the system's cryptographic generator).
        private static func newToken() -> String {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            var generator = SystemRandomNumberGenerator()
            // 43 characters of 6 bits each: 258 random bits.
            return "kura_" + String((0..<43).map { _ in alphabet[Int(generator.next() % 64)] })
        }
    }
}
