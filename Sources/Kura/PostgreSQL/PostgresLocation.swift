import Foundation

/// Where a realm that lives in PostgreSQL is: a server, a database and one schema in it, named by a
/// URL such as `postgres://kura@db.example.com:5432/app?schema=people`.
///
/// The URL carries no password: it is shown in messages, logs and process lists. The password
/// comes from `PGPASSWORD` or from the password file (`PGPASSFILE`, else `~/.pgpass`), as for
/// PostgreSQL's own programs. Parameters, as libpq names them: `schema` (default `public`),
/// `sslmode` (`disable`, `allow`, `prefer` (the default), `require`, `verify-ca`, `verify-full`),
/// `sslrootcert` (a PEM file of trusted roots), `connect_timeout` (seconds, default 10),
/// `application_name`, and `host` (a folder holding the server's Unix socket).
package struct PostgresLocation: Sendable, Equatable {
    /// How the connection uses TLS, as libpq's `sslmode`.
    package enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    package var user: String
    /// The server's host name or address; `nil` when `socketFolder` is used.
    package var host: String?
    /// The folder holding the server's Unix socket (libpq's `host=/path`), instead of a host.
    package var socketFolder: String?
    package var port: Int
    package var database: String
    /// The PostgreSQL schema that holds the realm's tables.
    package var schema: String
    package var tlsMode: TLSMode
    /// A PEM file of the certificate authorities to trust, instead of the system's.
    package var rootCertificates: String?
    package var connectTimeout: Int
    package var applicationName: String

    /// Whether `text` names a PostgreSQL realm rather than a file.
    package static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads a realm URL; `environment` supplies the defaults libpq takes from it (`PGUSER`, `PGPORT`).
    package init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(KuraError) {
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw Self.invalid(Self.withoutPassword(text), "write it as postgres://USER@HOST:PORT/DATABASE?schema=NAME")
        }
        if components.password != nil || components.percentEncodedPassword != nil { throw Self.passwordInURL }
        let shown = Self.withoutPassword(text)
        let defaultUser = environment["PGUSER"] ?? environment["USER"] ?? "postgres"
        user = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? defaultUser
        // Foundation keeps an IPv6 address's brackets.
        host = components.host.flatMap { $0.isEmpty ? nil : $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) }
        socketFolder = nil
        port = components.port ?? environment["PGPORT"].flatMap(Int.init) ?? 5432
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw Self.invalid(shown, "the database '\(path)' holds a '/'") }
        database = path.isEmpty ? user : path
        schema = "public"
        tlsMode = .prefer
        rootCertificates = nil
        connectTimeout = 10
        applicationName = "kura"
        for item in components.queryItems ?? [] {
            try apply(item.name, item.value ?? "", shown: shown)
        }
        if host == nil && socketFolder == nil { host = "localhost" }
        guard (1...65535).contains(port) else { throw Self.invalid(shown, "the port \(port) is not between 1 and 65535") }
        guard !schema.isEmpty, schema.utf8.count <= 63 else {
            throw Self.invalid(shown, "the schema name must have 1 to 63 bytes")
        }
    }

    private mutating func apply(_ name: String, _ value: String, shown: String) throws(KuraError) {
        switch name {
        case "schema": schema = value
        case "sslmode":
            guard let mode = TLSMode(rawValue: value) else {
                throw Self.invalid(shown, "sslmode '\(value)' is none of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            tlsMode = mode
        case "sslrootcert": rootCertificates = value
        case "connect_timeout":
            guard let seconds = Int(value), seconds > 0 else {
                throw Self.invalid(shown, "connect_timeout '\(value)' is no whole number of seconds above 0")
            }
            connectTimeout = seconds
        case "application_name": applicationName = value
        case "host":
            if value.hasPrefix("/") { (socketFolder, host) = (value, nil) } else { host = value }
        case "user": user = value
        case "port":
            guard let number = Int(value) else { throw Self.invalid(shown, "the port '\(value)' is no number") }
            port = number
        case "dbname": database = value
        case "password": throw Self.passwordInURL
        default:
            throw Self.invalid(
                shown,
                "unknown parameter '\(name)' (known: schema, sslmode, sslrootcert, connect_timeout, application_name, host, user, port, dbname)")
        }
    }

    /// The URL as messages show it: every part that says where the realm is, and nothing secret.
    package var description: String {
        var text = "postgres://\(Self.encode(user))@"
        if let host {
            text += host.contains(":") ? "[\(host)]" : host
            text += ":\(port)"
        }
        text += "/\(Self.encode(database))?schema=\(Self.encode(schema))"
        if let socketFolder { text += "&host=\(Self.encode(socketFolder))" }
        return text
    }

    /// The host a password file line matches: `localhost` for a Unix socket, as libpq does.
    package var passwordFileHost: String { host ?? "localhost" }

    /// The schema's name quoted for SQL.
    package var quotedSchema: String { TableLayout.quote(schema) }

    /// The refusal of a password written in the URL, which never repeats it.
    private static let passwordInURL = KuraError.store(
        .openFailed,
        "a realm's URL carries no password (it would show in logs and process lists): put it in PGPASSWORD or ~/.pgpass")

    private static func encode(_ part: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return part.addingPercentEncoding(withAllowedCharacters: allowed) ?? part
    }

    private static func invalid(_ shown: String, _ why: String) -> KuraError {
        KuraError.store(.openFailed, "'\(shown)' is no PostgreSQL realm URL: \(why)")
    }

    /// `text` with anything between `//` and `@` that follows a `:` cut out, for a message about a
    /// URL that may not parse.
    private static func withoutPassword(_ text: String) -> String {
        guard let start = text.range(of: "//"), let at = text[start.upperBound...].firstIndex(of: "@") else { return text }
        let credentials = text[start.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + String(text[at...])
    }
}
