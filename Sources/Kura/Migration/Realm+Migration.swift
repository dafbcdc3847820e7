import Foundation

/// Planning and running migrations of realm files (what `kura migrate` does).
extension Realm {
    /// The plan of migrating the realm file `configuration.path` to `configuration.schema`: its changes,
    /// the counts they touch, and the problems the stored data raises (`MigrationPlan.problems`).
    ///
    /// The file is opened read-only: making a plan never writes to it. Throws when the file is not a
    /// realm or the new schema's version is lower than the stored one.
    public static func migrationPlan(for configuration: Configuration) throws -> MigrationPlan {
        let (path, requested) = try migrationTarget(configuration)
        return try run(sql: nil) {
            try StorageEngines.survey(
                path: path, busyTimeout: configuration.busyTimeout, encodeScalar: MigrationExecutor.encodeFill
            ) { stored, survey in
                try MigrationPlanner(survey: survey, stored: stored, requested: requested).plan().plan
            }
        }
    }

    /// Migrates the realm file `configuration.path` to `configuration.schema` in one transaction,
    /// running `configuration.migrationBlock` if there is one: changes the new schema declares
    /// (added and removed types and properties, `renamedFrom`, primary keys, defaults) are made
    /// without a block. Throws `KuraError` when the data does not allow the change (duplicate
    /// keys, nulls without a default); nothing is written then.
    public static func performMigration(for configuration: Configuration) throws {
        _ = try migrationTarget(configuration)
        _ = try Realm(configuration: configuration, migrating: true)
    }

    /// The realm file and the schema a migration needs.
    private static func migrationTarget(_ configuration: Configuration) throws(KuraError) -> (path: String, schema: Schema) {
        guard let schema = configuration.schema else {
            throw KuraError.store(.openFailed, "a migration needs the new schema: set the configuration's schema")
        }
        guard !configuration.isInMemory, !configuration.isFile || FileManager.default.fileExists(atPath: configuration.path) else {
            throw KuraError.store(.openFailed, "no realm file at '\(configuration.path)' to migrate")
        }
        return (configuration.path, schema)
    }
}
