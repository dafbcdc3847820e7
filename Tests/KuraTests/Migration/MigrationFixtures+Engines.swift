import Foundation
import Kura
import KuraTestSupport
import Testing

/// The migration fixtures on either engine: realms made at a fresh path or PostgreSQL URL, and
/// what shows that a refused migration left a realm as it was.
extension MigrationFixtures {
    /// A realm of `engine`, new, created with `yaml`.
    static func realm(_ yaml: String, on engine: RealmEngine) throws -> (path: String, realm: Realm) {
        let path = try engine.freshRealm("migration")
        return (path, try Realm(path: path, schema: try Schema(yaml: yaml)))
    }

    /// What the realm at `path` holds as stored: the file's bytes for SQLite; for PostgreSQL its
    /// schema's relations (tables, indexes, sequences), the rows of `#meta` and `#types`, and every
    /// object table's row count.
    static func storedState(_ path: String, on engine: RealmEngine) throws -> Data {
        switch engine {
        case .sqlite:
            return try bytes(path)
        case .postgres:
            let schema = try #require(postgresSchema(path))
            let relations = try PostgresTestServer.psql("""
                SELECT string_agg(c.relname || ':' || c.relkind::text, ',' ORDER BY c.relname) FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '\(schema)'
                """)
            let meta = try PostgresTestServer.psql("""
                SELECT string_agg("key" || '=' || "value", ',' ORDER BY "key") FROM "\(schema)"."#meta";
                SELECT string_agg("name" || '=' || "id" || '/' || "lastObjectId" || '/' || "lastKey", ',' ORDER BY "name")
                FROM "\(schema)"."#types"
                """)
            return Data((relations + "\n" + meta).utf8)
        }
    }

    /// The PostgreSQL schema a realm URL names (`schema=…`).
    static func postgresSchema(_ url: String) -> String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == "schema" }?.value
    }
}
