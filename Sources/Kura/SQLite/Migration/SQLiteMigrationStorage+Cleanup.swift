import GRDB

/// What a migration leaves behind (`MigrationCleanupSQL`).
extension SQLiteMigrationStorage {
    func orphanedEmbeddedIds(of type: String) throws -> [Int64] {
        try Int64.fetchAll(db, sql: MigrationCleanupSQL.orphanedEmbeddedIds(of: type, in: try currentCatalog))
    }

    func deleteUnreferencedMixedContainers() throws -> Int {
        try db.execute(sql: MigrationCleanupSQL.deleteUnreferencedMixedContainers(in: try currentCatalog) { $0 })
        return db.changesCount
    }
}
