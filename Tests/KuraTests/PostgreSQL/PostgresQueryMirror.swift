import Foundation
import GRDB
import KuraTestSupport

@testable import Kura

/// A SQLite realm copied table by table into a PostgreSQL schema laid out as `PostgresLayout`
/// says (texts as bytes, mixed values as bytes and a tag, numbers as decimal text, sets with a
/// `"#row"` column), with the query functions installed: the same objects on both engines, for
/// running one compiled query on each.
struct PostgresQueryMirror {
    let sqlite: DatabaseQueue
    let session: PostgresSession
    /// The realm's catalog, with SQLite's dialect, and the same with PostgreSQL's.
    let sqliteCatalog: SchemaCatalog
    let postgresCatalog: SchemaCatalog

    /// Copies the realm file at `path`, whose catalog is `catalog`, into a fresh schema.
    init(realmPath path: String, catalog: SchemaCatalog, label: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in QueryFunctions.install(in: db) }
        sqlite = try DatabaseQueue(path: path, configuration: configuration)
        let location = try PostgresLocation(url: PostgresTestServer.freshRealmURL(label))
        session = try PostgresSession(location)
        try session.execute("CREATE SCHEMA \(location.quotedSchema)")
        sqliteCatalog = catalog
        postgresCatalog = SchemaCatalog(schema: catalog.schema, typeIds: catalog.typeIds, limits: PostgresLimits.query)
        for table in try Self.tables(of: catalog.schema) { try copy(table) }
        try PostgresQueryFunctions.install(on: session)
    }

    /// A table to copy: its name, and per column whether it is a set's (which gets `"#row"`).
    private struct Table {
        let name: String
        let isSet: Bool
    }

    private static func tables(of schema: Schema) throws -> [Table] {
        var tables = [Table(name: "#mixed", isSet: false)]
        for type in schema.types {
            tables.append(Table(name: type.name, isSet: false))
            for property in type.storedProperties where property.type.isCollection {
                var isSet = false
                if case .set = property.type { isSet = true }
                tables.append(Table(name: "\(type.name).\(property.name)", isSet: isSet))
            }
        }
        return tables
    }

    /// Creates the table with PostgreSQL's column types and copies its rows in creation order.
    private func copy(_ table: Table) throws {
        let quoted = TableLayout.quote(table.name)
        let columns = try sqlite.read { db in
            try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [table.name])
                .map { row -> (name: String, type: String) in (row[0], row[1]) }
        }
        let names = Set(columns.map(\.name))
        let mixed = Set(columns.map(\.name).filter { names.contains(Self.tag(of: $0)) })
        var definitions: [String] = []
        for column in columns {
            let type: String
            if mixed.contains(column.name) {
                type = "bytea"
            } else {
                switch column.type.uppercased() {
                case "INTEGER": type = "bigint"
                case "TEXT", "BLOB": type = "bytea"
                default: type = "double precision"
                }
            }
            definitions.append("\(TableLayout.quote(column.name)) \(type)")
        }
        if table.isSet { definitions.append("\(PostgresLayout.rowColumn) bigint GENERATED ALWAYS AS IDENTITY") }
        try session.execute("CREATE TABLE \(quoted) (\(definitions.joined(separator: ", ")))")
        let order = table.isSet ? "rowid" : "1"
        let rows = try sqlite.read { db in try Row.fetchAll(db, sql: "SELECT * FROM \(quoted) ORDER BY \(order)") }
        guard !rows.isEmpty else { return }
        var text = PostgresCopyText()
        for row in rows {
            for (index, column) in columns.enumerated() {
                let cell = StoredCell(row[index] as DatabaseValue)
                text.append(mixed.contains(column.name) ? PostgresLayout.storedMixed(cell) : PostgresLayout.stored(cell))
            }
            text.endRow()
        }
        try session.copy(into: table.name, columns: columns.map(\.name), text.buffer)
    }

    /// The tag column beside a mixed value's column.
    private static func tag(of column: String) -> String {
        column == "#value" ? "#type" : column + "#type"
    }

    /// The ids the query matches on each engine, compiled for each.
    func ids(
        _ type: String, where predicate: String, arguments: [Value] = [], sortedBy sort: String? = nil
    ) throws -> (sqlite: [Int64], postgres: [Int64]) {
        let onSQLite = try ObjectQuery(type, where: predicate, arguments: arguments, sortedBy: sort, catalog: sqliteCatalog)
        let onPostgres = try ObjectQuery(type, where: predicate, arguments: arguments, sortedBy: sort, catalog: postgresCatalog)
        let sqliteIds = try sqlite.read { db in try onSQLite.matchingIds(db) }
        return (sqliteIds, try onPostgres.matchingIds(session))
    }

    /// The value of the int property `key` of each object of `type`, by object id.
    func keys(of type: String, property key: String = "id") throws -> [Int64: Int] {
        var keys: [Int64: Int] = [:]
        for row in try session.rows("SELECT \(TableLayout.idColumn), \(TableLayout.column(key)) FROM \(TableLayout.quote(type))") {
            if case .integer(let id) = row[0], case .integer(let value) = row[1] { keys[id] = Int(value) }
        }
        return keys
    }
}
