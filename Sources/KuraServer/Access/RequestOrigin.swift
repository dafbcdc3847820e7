/// A web origin (`scheme://host[:port]`), as an `Origin` header or `server.origins` gives it, with
/// the host in lower case and the scheme's default port filled in, so that equal origins compare equal.
struct RequestOrigin: Equatable, Sendable {
    let scheme: String
    let host: String
    let port: Int

    /// Reads `text`; `nil` for anything but an http or https origin (`null` included).
    init?(_ text: String) {
        let lowered = text.lowercased()
        let scheme: String
        if lowered.hasPrefix("http://") {
            scheme = "http"
        } else if lowered.hasPrefix("https://") {
            scheme = "https"
        } else {
            return nil
        }
        let authority = lowered.dropFirst(scheme.count + 3)
        guard let (host, port) = Self.split(authority, defaultPort: scheme == "https" ? 443 : 80) else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Whether this origin names the authority `host[:port]` of a request (its `Host` header)
    /// reached over plain HTTP, as a page the server itself served would.
    func isSameOrigin(asAuthority authority: String) -> Bool {
        guard scheme == "http", let (host, port) = Self.split(authority.lowercased()[...], defaultPort: 80) else { return false }
        return self.host == host && self.port == port
    }

    /// The host of `authority` (`host`, `host:port`, `[v6]` or `[v6]:port`) without its port, in lower case.
    static func hostName(ofAuthority authority: String) -> String? {
        split(authority.lowercased()[...], defaultPort: 0)?.host
    }

    /// `host[:port]` split into host and port; `nil` when the port is not a number or anything follows.
    private static func split(_ authority: Substring, defaultPort: Int) -> (host: String, port: Int)? {
        let host: Substring
        let rest: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            rest = authority[authority.index(after: close)...]
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            rest = authority[colon...]
        } else {
            host = authority
            rest = ""
        }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@") else { return nil }
        if rest.isEmpty { return (String(host), defaultPort) }
        guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), (0...65535).contains(port) else { return nil }
        return (String(host), port)
    }
}
