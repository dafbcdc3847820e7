import Foundation
import GRDB

/// A SQLite realm's tables as a migration sees them: made as `SchemaInstaller` makes them, set aside
/// under `#old` names, filled by SQL that calls a UUID generator of the connection's own.
struct SQLiteMigrationLayout: MigrationTableLayout {
    /// The suffix of a table's name while it is set aside.
    static let asideSuffix = "#old"

    /// The name of the SQL function generating a fresh UUID per row, installed for a migration.
    static let uuidFunction = "kura_uuid"

    /// How SQLite spells the fills: its own UUID function, cells stored as they are.
    static let dialect = ColumnSources.Dialect(uuidExpression: "\(uuidFunction)()", storedCell: { $0 }, storedMixedCell: { $0 })

    func objectTableStatements(for type: ObjectSchema) -> [String] {
        let sql = SchemaInstaller.objectTableSQL(for: type)
        return [sql.table] + sql.indexes
    }

    func collectionTableStatements(_ typeName: String, _ property: Property) -> [String] {
        SchemaInstaller.collectionTableSQL(typeName, property)
    }

    /// Where the old objects are while the migration planned by `plans` runs.
    static func oldLayout(_ plans: [TypeMigration]) -> OldLayout {
        OldLayout(plans, layout: Self()) { name, _ in name + asideSuffix }
    }

    /// Adds the UUID generator to a connection (read-only ones too: checks evaluate fills).
    static func installFunctions(in db: Database) {
        db.add(function: DatabaseFunction(uuidFunction, argumentCount: 0, pure: false) { _ in
            UUID().bytes
        })
    }
}
