/// One bearer token of `server.tokens`: only its SHA-256 is stored, with its scope and realms.
public struct TokenEntry: Sendable, Equatable, Codable {
    /// A name for people and logs; never the token itself.
    public var name: String
    /// The token's SHA-256 as 64 lowercase hexadecimal digits.
    public var sha256: String
    /// What the token may do.
    public var scope: AccessScope
    /// The realms it may touch; `nil` for every realm.
    public var realms: [String]?

    /// Makes an entry; `realms` `nil` allows every realm.
    public init(name: String, sha256: String, scope: AccessScope, realms: [String]? = nil) {
        self.name = name
        self.sha256 = sha256
        self.scope = scope
        self.realms = realms
    }

    /// Whether the token may reach `realm`.
    public func allows(realm: String) -> Bool { realms?.contains(realm) ?? true }

    /// The entry as one line of YAML flow mapping, as `server.tokens` holds it.
    public var configLine: String {
        let realmList = realms.map { ", realms: [\($0.joined(separator: ", "))]" } ?? ""
        return "{name: \(name), sha256: \(sha256), scope: \(scope.rawValue)\(realmList)}"
    }
}
