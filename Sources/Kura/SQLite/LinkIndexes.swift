import GRDB

/// The partial indexes on mixed values that are links (`SchemaInstaller.linkIndexSQL`). Realms
/// made before them lack them, and their deletes scan every row holding a mixed value for each
/// object deleted: a realm opened for writing gets the missing ones.
enum LinkIndexes {
    /// One link index: its name and the name of its table, unquoted as `sqlite_master` has them,
    /// and the statement creating it.
    struct Index: Equatable {
        let name: String
        let table: String
        let sql: String
    }

    /// Every link index the tables of `schema` have in a realm made now.
    static func all(_ schema: Schema) -> [Index] {
        var indexes = [Index(name: "#mixed#link", table: "#mixed", sql: SchemaInstaller.mixedLinkIndexSQL)]
        for type in schema.types {
            for property in type.storedProperties {
                guard let sql = SchemaInstaller.linkIndexSQL(type.name, property) else { continue }
                let table = property.type.isCollection ? "\(type.name).\(property.name)" : type.name
                indexes.append(Index(name: SchemaInstaller.linkIndexName(type.name, property), table: table, sql: sql))
            }
        }
        return indexes
    }

    /// The link indexes `schema` asks for that are missing on tables the realm has: one read of
    /// `sqlite_master`.
    static func missing(in db: Database, schema: Schema) throws -> [Index] {
        var tables: Set<String> = []
        var indexes: Set<String> = []
        for row in try Row.fetchAll(db, sql: "SELECT \"type\", \"name\" FROM sqlite_master WHERE \"type\" IN ('table', 'index')") {
            guard let kind = row[0] as String?, let name = row[1] as String? else { continue }
            if kind == "table" { tables.insert(name) } else { indexes.insert(name) }
        }
        return all(schema).filter { !indexes.contains($0.name) && tables.contains($0.table) }
    }

    /// Creates the missing link indexes, in the caller's write transaction.
    static func addMissing(in db: Database, schema: Schema) throws {
        for index in try missing(in: db, schema: schema) { try db.execute(sql: index.sql) }
    }
}
