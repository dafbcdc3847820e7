import Foundation

/// Where a realm's engine is chosen, from how the realm is named: a `postgres://` or
/// `postgresql://` URL names a PostgreSQL realm, anything else an SQLite file (or `:memory:`).
/// The one place above the engines that names them.
enum StorageEngines {
    /// Opens the connection to the realm at `path` (`:memory:` or `memory:NAME` in memory);
    /// `mayCreate` when a schema was given, so that an empty place may become a realm.
    static func connect(
        path: String, isInMemory: Bool, busyTimeout: TimeInterval, readOnly: Bool, mayCreate: Bool
    ) throws -> any RelationalEngine {
        if PostgresLocation.isURL(path) { return try PostgresEngine(url: path, busyTimeout: busyTimeout, readOnly: readOnly) }
        return try SQLiteConnection(SQLiteConnection.Location(
            path: path, isInMemory: isInMemory, busyTimeout: busyTimeout, readOnly: readOnly, mayCreate: mayCreate))
    }

    /// Whether `path` names a realm on a database server rather than a file.
    static func isServerURL(_ path: String) -> Bool {
        PostgresLocation.isURL(path)
    }

    /// The name every handle of the server realm `path` shares, however its URL is written; `nil`
    /// for a file or an URL that does not read.
    static func serverRealmName(_ path: String) -> String? {
        guard PostgresLocation.isURL(path) else { return nil }
        return (try? PostgresLocation(url: path))?.description
    }

    /// The name of the schema a server realm lives in; `nil` for a file or an URL that does not read.
    static func serverRealmSchema(_ path: String) -> String? {
        guard PostgresLocation.isURL(path) else { return nil }
        return (try? PostgresLocation(url: path))?.schema
    }

    /// What checks the realm at `path` without writing to it.
    static func checker(path: String, busyTimeout: TimeInterval) -> any StorageChecking {
        if PostgresLocation.isURL(path) { return PostgresStorageChecker(url: path) }
        return SQLiteStorageChecker(path: path, busyTimeout: busyTimeout)
    }

    /// Reads the realm at `path` for a migration plan: hands `body` the schema it stores and the
    /// survey of its objects, in one read that writes nothing.
    static func survey<T>(
        path: String, busyTimeout: TimeInterval, encodeScalar: @escaping MigrationScalarEncoder,
        _ body: (_ stored: Schema, _ survey: any MigrationSurvey) throws -> T
    ) throws -> T {
        guard PostgresLocation.isURL(path) else {
            return try SQLiteMigrationStorage.survey(path: path, busyTimeout: busyTimeout, encodeScalar: encodeScalar, body)
        }
        // Read-only: the session's transaction is a read-only one, so making a plan never writes.
        let engine = try PostgresEngine(url: path, busyTimeout: busyTimeout, readOnly: true)
        defer { engine.close() }
        return try engine.readingSchema { store in
            guard try store.isInstalled() else { throw engine.notARealm }
            return try body(try store.storedSchema(), store.migrationStorage(encodeScalar: encodeScalar))
        }
    }
}
