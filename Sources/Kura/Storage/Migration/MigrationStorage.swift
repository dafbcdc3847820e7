/// Everything a migration needs from a realm's storage: the facts about its objects, installing the
/// new schema over them, and finding what that leaves behind.
package typealias MigrationStorage = MigrationSurvey & SchemaRebuild & OrphanCleanup
