import Foundation
import Synchronization
import Testing

/// The PostgreSQL server the tests of PostgreSQL realms use: `KURA_POSTGRES_URL` names it (a
/// superuser's URL, without a password) and `PGPASSFILE` or `PGPASSWORD` hold the password, as
/// `.ci/postgres start` sets them. Without a server those tests say so loudly: a warning each, or,
/// under `KURA_POSTGRES_TESTS=required` (which `.ci/run` sets), a failure each, so that CI never
/// skips them.
package enum PostgresTestServer {
    private static let environment = ProcessInfo.processInfo.environment

    /// The server's URL, as `.ci/postgres start` exports it.
    package static let url: String? = environment["KURA_POSTGRES_URL"]

    package static let isRequired = environment["KURA_POSTGRES_TESTS"] == "required"

    /// Whether the tests can reach the server. When they cannot, records why: an error under
    /// `KURA_POSTGRES_TESTS=required`, a warning otherwise.
    package static func isReady() -> Bool {
        if url != nil { return true }
        let missing = "KURA_POSTGRES_URL is not set (eval \"$(.ci/postgres start)\" starts a server and sets it)"
        if isRequired {
            Issue.record("KURA_POSTGRES_TESTS=required, but the PostgreSQL tests cannot run: \(missing)")
        } else {
            Issue.record("the PostgreSQL tests did not run: \(missing) (KURA_POSTGRES_TESTS=required makes this an error)", severity: .warning)
        }
        return false
    }

    /// The server's URL with `suffix` appended to its query (`schema=…&sslmode=…`).
    package static func url(_ query: String) -> String {
        guard let url else { return "" }
        return url + (url.contains("?") ? "&" : "?") + query
    }

    /// A URL naming a schema no test has used, dropped when the process ends.
    package static func freshRealmURL(_ label: String = "realm") -> String {
        let schema = "kura_\(label)_\(UUID().uuidString.prefix(8).lowercased())"
        createdSchemas.withLock { $0.append(schema) }
        return url("schema=\(schema)")
    }

    /// Runs `sql` through `psql` on the server's database and returns what it printed: rows
    /// unaligned, one per line, columns separated by `|`.
    @discardableResult
    package static func psql(_ sql: String) throws -> String {
        guard let url else { return "" }
        let connection = url.split(separator: "?").first.map(String.init) ?? url
        let result = try Fixtures.run("/usr/bin/env", ["psql", connection, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
        guard result.status == 0 else {
            throw PostgresTestError(message: "psql failed on \(sql): \(result.stderr)")
        }
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    private static let createdSchemas: Mutex<[String]> = {
        atexit {
            let schemas = PostgresTestServer.createdSchemas.withLock { $0 }
            guard !schemas.isEmpty else { return }
            let drops = schemas.map { "DROP SCHEMA IF EXISTS \"\($0)\" CASCADE;" }.joined()
            _ = try? PostgresTestServer.psql(drops)
        }
        return Mutex<[String]>([])
    }()
}

/// A failure of the test server itself, not of Kura.
package struct PostgresTestError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
