import Foundation
import Kura

/// A realm served by `kura serve`, named by its URL: `https://HOST[:PORT]/v1/realms/NAME`, or
/// `http://` to a server on this machine's loopback.
///
/// The URL carries no token: a token in a URL ends up in logs and shell histories. Plain HTTP is
/// refused beyond loopback, where anyone on the path could read the token and the documents.
public struct RemoteRealmURL: Sendable, Equatable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The server's host name or address (an IPv6 address without brackets).
    public let host: String
    /// The server's port.
    public let port: Int
    /// The realm's name on the server.
    public let name: String

    /// Whether `text` names a served realm (starts with `http://` or `https://`) rather than a
    /// file or a database URL.
    public static func names(_ text: String) -> Bool {
        let lowered = text.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// Reads a realm's URL; throws ``KuraError/RemoteCode/invalidURL`` saying what is wrong with it.
    public init(_ text: String) throws(KuraError) {
        func refuse(_ reason: String) -> KuraError {
            KuraError(.remote(.invalidURL), "'\(Self.shown(text))' is not a served realm's URL: \(reason)")
        }
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw refuse("it must look like https://HOST:PORT/v1/realms/NAME")
        }
        guard parts.user == nil, parts.password == nil else {
            throw refuse("a URL carries no user or token; give the token in KURA_TOKEN or with --token-file")
        }
        guard let host = parts.host, !host.isEmpty else { throw refuse("it names no host") }
        guard parts.query == nil, parts.fragment == nil else {
            throw refuse("it must end with the realm's name, without a query or fragment")
        }
        let segments = parts.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let trimmed = segments.last == "" ? segments.dropLast() : segments
        guard trimmed.count == 3, trimmed.first == "v1", trimmed.dropFirst().first == "realms",
            let encoded = trimmed.last, let name = String(encoded).removingPercentEncoding, !name.isEmpty
        else {
            throw refuse("its path must be /v1/realms/NAME")
        }
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if scheme == "http" && !Self.isLoopback(bareHost) {
            throw refuse("plain http is for a server on this machine (localhost, 127.0.0.1, ::1); use https")
        }
        self.scheme = scheme
        self.host = bareHost
        self.port = parts.port ?? (scheme == "https" ? 443 : 80)
        self.name = name
    }

    /// The URL, as the messages show it.
    public var description: String {
        "\(origin)/v1/realms/\(Self.encoded(name))"
    }

    /// `scheme://host:port`, the part every request's URL starts with.
    var origin: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost):\(port)"
    }

    /// The URL of `route` under the realm (`""`, `/export`, `/import` …) with `query`'s items.
    func url(_ route: String, query: [(String, String)] = []) -> String {
        var text = description + route
        if !query.isEmpty {
            text += "?" + query.map { "\(Self.encoded($0.0))=\(Self.encoded($0.1))" }.joined(separator: "&")
        }
        return text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with everything but unreserved characters percent-encoded.
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        return lowered == "localhost" || lowered == "::1" || lowered.hasPrefix("127.")
    }

    /// `text` as a message may show it: without a user or password it might carry.
    private static func shown(_ text: String) -> String {
        guard var parts = URLComponents(string: text), parts.user != nil || parts.password != nil else { return text }
        parts.user = nil
        parts.password = nil
        return parts.string ?? "(the URL)"
    }
}
