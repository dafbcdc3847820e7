/// What a migration of a PostgreSQL realm leaves behind (`MigrationCleanupSQL`).
extension PostgresMigrationStorage {
    func orphanedEmbeddedIds(of type: String) throws -> [Int64] {
        try session.rows(MigrationCleanupSQL.orphanedEmbeddedIds(of: type, in: try currentCatalog)).compactMap { $0.first?.objectId }
    }

    func deleteUnreferencedMixedContainers() throws -> Int {
        // A mixed value column holds a container's id as its decimal text (`PostgresLayout.storedMixed`).
        let delete = MigrationCleanupSQL.deleteUnreferencedMixedContainers(in: try currentCatalog) { "convert_from(\($0), 'UTF8')::bigint" }
        let deleted = try session.value("WITH \"deleted\" AS (\(delete) RETURNING 1) SELECT count(*) FROM \"deleted\"")
        return Int(deleted?.objectId ?? 0)
    }
}
