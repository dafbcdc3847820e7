import Kura

/// What a request's bearer token may do, as `TokenRegistry.authorize` found it.
enum RequestAccess: Sendable {
    /// The server has no tokens: every request may do everything.
    case open
    /// The request carries this token of `server.tokens`.
    case token(TokenEntry)

    /// Whether realm `name` shows in listings.
    func mayList(_ name: String) -> Bool {
        switch self {
        case .open: true
        case .token(let entry): entry.allows(realm: name)
        }
    }

    /// Checks that the token has at least `scope` on every realm of `realms`: 403 otherwise.
    func require(_ scope: AccessScope, realms: [String]) throws(Problem) {
        guard case .token(let entry) = self else { return }
        guard entry.scope >= scope else {
            throw Problem(status: 403, code: "forbidden", detail: "token '\(entry.name)' has scope \(entry.scope.rawValue); this needs \(scope.rawValue)")
        }
        for realm in realms where !entry.allows(realm: realm) {
            throw Problem(status: 403, code: "forbidden", detail: "token '\(entry.name)' may not use realm '\(MessageText.shown(realm))'")
        }
    }
}
