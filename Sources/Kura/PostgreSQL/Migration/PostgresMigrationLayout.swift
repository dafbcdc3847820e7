/// A PostgreSQL realm's tables as a migration sees them: made as `PostgresSchemaInstaller` makes
/// them, set aside under short numbered names, filled by SQL that stores texts by the bytea rule.
struct PostgresMigrationLayout: MigrationTableLayout {
    /// The prefix of a table's name while it is set aside. Numbered rather than suffixed: a type's
    /// name with a suffix may pass the 63 bytes PostgreSQL keeps of a name and cut back into another.
    static let asidePrefix = "#old#"

    /// How PostgreSQL spells the fills: the server's UUID generator, cells stored as
    /// `PostgresLayout` stores written ones.
    static let dialect = ColumnSources.Dialect(
        uuidExpression: "uuid_send(gen_random_uuid())", storedCell: { PostgresLayout.stored($0) },
        storedMixedCell: { PostgresLayout.storedMixed($0) })

    func objectTableStatements(for type: ObjectSchema) -> [String] {
        PostgresSchemaInstaller.objectTableSQL(for: type)
    }

    func collectionTableStatements(_ typeName: String, _ property: Property) -> [String] {
        PostgresSchemaInstaller.collectionTableSQL(typeName, property)
    }

    /// Where the old objects are while the migration planned by `plans` runs.
    static func oldLayout(_ plans: [TypeMigration]) -> OldLayout {
        OldLayout(plans, layout: Self()) { _, number in asidePrefix + String(number) }
    }

    /// Whether `statement` creates the unique index of a primary key, which waits for the end of a
    /// migration block.
    static func isUniqueIndex(_ statement: String) -> Bool {
        statement.hasPrefix("CREATE UNIQUE INDEX")
    }
}
