import Foundation
import Hummingbird
import Kura

/// Checks bearer tokens against the SHA-256 digests of `server.tokens`.
public struct TokenRegistry: Sendable {
    private let entries: [String: TokenEntry]

    /// The registry of `tokens`; with none, every request is allowed (the server then listens on loopback only).
    public init(tokens: [TokenEntry]) {
        entries = Dictionary(tokens.map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether requests need a token at all.
    public var isEnforced: Bool { !entries.isEmpty }

    /// The token of an `Authorization: Bearer TOKEN` value.
    private static func token(in authorization: String?) -> String? {
        guard let authorization, authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else { return nil }
        let token = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// Checks that `authorization` (the header's value) carries a token with at least `scope` on
    /// `realms`, and says what it may do.
    ///
    /// Throws 401 with `WWW-Authenticate: Bearer` for a missing or unknown token, 403 for too little
    /// scope or another realm. The token itself never appears in a problem.
    func authorize(_ authorization: String?, scope: AccessScope, realms: [String]) throws(Problem) -> RequestAccess {
        guard isEnforced else { return .open }
        guard let token = Self.token(in: authorization) else {
            throw Self.unauthorized("a bearer token is needed: send Authorization: Bearer TOKEN")
        }
        guard let entry = entries[SHA256Digest.hex(of: token)] else {
            throw Self.unauthorized("the bearer token is not one of this server's tokens")
        }
        let access = RequestAccess.token(entry)
        try access.require(scope, realms: realms)
        return access
    }

    /// What `authorization` may do, or `nil` for a missing or unknown token where tokens are
    /// needed: for routes that answer everyone, and show more to a token.
    func access(_ authorization: String?) -> RequestAccess? {
        guard isEnforced else { return .open }
        return Self.token(in: authorization).flatMap { entries[SHA256Digest.hex(of: $0)] }.map(RequestAccess.token)
    }

    private static func unauthorized(_ detail: String) -> Problem {
        Problem(status: 401, code: "unauthorized", detail: detail, headers: [("WWW-Authenticate", "Bearer")])
    }
}
