import Foundation
import Kura
import Testing

/// The storage engines the realm tests run on, one suite for both: a test that takes an engine as
/// its argument opens its realms with `freshRealm`, and runs once per engine in `tested`.
package enum RealmEngine: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// SQLite always; PostgreSQL when a test server is set (`KURA_POSTGRES_URL`) or required
    /// (`KURA_POSTGRES_TESTS=required`, under which a missing server fails every PostgreSQL case).
    package static let tested: [RealmEngine] =
        PostgresTestServer.url != nil || PostgresTestServer.isRequired ? [.sqlite, .postgres] : [.sqlite]

    package var testDescription: String { rawValue }

    /// Where a new, empty realm of this engine goes: a path in a temporary folder, or a schema of
    /// the test server that no test has used (dropped when the tests end).
    package func freshRealm(_ label: String = "test") throws -> String {
        switch self {
        case .sqlite: return try Fixtures.realmPath("\(label).realm")
        case .postgres:
            guard PostgresTestServer.isReady() else { throw PostgresTestError(message: "no PostgreSQL server for the tests") }
            return PostgresTestServer.freshRealmURL(label.lowercased().filter { $0.isLetter || $0.isNumber })
        }
    }

    /// Opens a new realm of this engine with `schema`.
    package func makeRealm(_ schema: Schema, label: String = "test") throws -> Realm {
        try Realm(path: try freshRealm(label), schema: schema)
    }
}
