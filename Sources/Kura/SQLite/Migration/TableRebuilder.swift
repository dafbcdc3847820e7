import GRDB

/// Moves a realm's tables from the old schema's layout to the new one's, in SQL: a table that changes
/// is renamed aside, made anew exactly as a new realm would have it, filled with one
/// `INSERT … SELECT` from the old one, and the old one is dropped at the end.
struct TableRebuilder {
    let db: Database
    let plans: [TypeMigration]
    let columns: ColumnSources

    /// Renames the replaced and removed tables aside and drops their indexes, whose names the new
    /// tables' indexes take.
    func setAside(_ layout: OldLayout) throws {
        for (name, aside) in layout.setAside {
            try db.execute(sql: "ALTER TABLE \(TableLayout.quote(name)) RENAME TO \(TableLayout.quote(aside))")
            let indexes = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                arguments: [aside])
            for index in indexes { try db.execute(sql: "DROP INDEX \(TableLayout.quote(index))") }
        }
    }

    /// Creates the new and rebuilt tables and copies the old values into them. Primary key indexes
    /// come later (`createKeyIndexes`), after a migration block may have mended the keys.
    func build(_ layout: OldLayout) throws {
        for plan in plans {
            guard let new = plan.new else { continue }
            if plan.rebuildsObjectTable(in: SQLiteMigrationLayout()) {
                let sql = SchemaInstaller.objectTableSQL(for: new)
                try db.execute(sql: sql.table)
                if plan.old != nil { try copyObjects(plan, from: layout.objectTable(plan.name)) }
                // Link and property indexes serve the block's lookups and unlinking; the key's unique
                // index waits until the block has had its chance to mend duplicates.
                for index in sql.indexes where !Self.isUnique(index) { try db.execute(sql: index) }
            }
            for property in plan.properties where property.new.type.isCollection && !plan.keepsCollectionTable(of: property, in: SQLiteMigrationLayout()) {
                for statement in SchemaInstaller.collectionTableSQL(new.name, property.new) { try db.execute(sql: statement) }
                if property.copies, let old = property.old {
                    try copyCollection(property.new, of: new.name, from: layout.collectionTable(new.name, old.name))
                }
            }
            try SchemaInstaller.register(new.name, in: db)
        }
        try raiseKeyCounters()
    }

    /// Creates the primary key indexes of the object tables made anew.
    func createKeyIndexes() throws {
        for plan in plans where plan.rebuildsObjectTable(in: SQLiteMigrationLayout()) {
            guard let new = plan.new else { continue }
            for index in SchemaInstaller.objectTableSQL(for: new).indexes where Self.isUnique(index) { try db.execute(sql: index) }
        }
    }

    private static func isUnique(_ index: String) -> Bool { index.hasPrefix("CREATE UNIQUE INDEX") }

    /// Drops the tables set aside, and the type ids of removed types.
    func dropSetAside(_ layout: OldLayout) throws {
        for (_, aside) in layout.setAside {
            try db.execute(sql: "DROP TABLE \(TableLayout.quote(aside))")
        }
        for plan in plans where plan.new == nil {
            try db.execute(sql: "DELETE FROM \(TableLayout.typesTable) WHERE \"name\" = ?", arguments: [plan.name])
        }
    }

    private func copyObjects(_ plan: TypeMigration, from table: String) throws {
        let selection = try columns.selection(for: plan, keyBase: try keyBase(plan, in: table))
        try db.execute(
            sql: """
                INSERT INTO \(TableLayout.objectTable(plan.name)) (\(selection.columns.joined(separator: ", ")))
                SELECT \(selection.expressions.joined(separator: ", ")) FROM \(table) ORDER BY \(TableLayout.idColumn)
                """,
            arguments: StatementArguments(selection.arguments.map(\.databaseValue)))
    }

    /// Carries out a migration block's rename: the old property's values, from the tables set aside,
    /// replace the new property's.
    func moveValues(of source: Property, to target: Property, in type: String, from layout: OldLayout) throws {
        if target.type.isCollection {
            try db.execute(sql: "DELETE FROM \(TableLayout.collectionTable(type, target.name))")
            try copyCollection(target, of: type, from: layout.collectionTable(type, source.name))
            return
        }
        var pairs = [(TableLayout.column(target.name), TableLayout.column(source.name))]
        if target.type == .mixed { pairs.append((TableLayout.tagColumn(target.name), TableLayout.tagColumn(source.name))) }
        let table = TableLayout.objectTable(type)
        let id = TableLayout.idColumn
        let assignments = pairs.map { column, old in
            "\(column) = (SELECT \(old) FROM \(layout.objectTable(type)) AS \"old\" WHERE \"old\".\(id) = \(table).\(id))"
        }
        try db.execute(sql: "UPDATE \(table) SET \(assignments.joined(separator: ", "))")
    }

    private func copyCollection(_ property: Property, of type: String, from table: String) throws {
        let list = TableLayout.collectionColumns(of: property.type).joined(separator: ", ")
        // A set keeps its insertion order in rowid; lists and maps are ordered by their keys.
        let order = TableLayout.orderColumn(for: property.type) == "rowid" ? " ORDER BY rowid" : ""
        try db.execute(sql: "INSERT INTO \(TableLayout.collectionTable(type, property.name)) (\(list)) SELECT \(list) FROM \(table)\(order)")
    }

    /// The number after which keys generated for existing objects start: past the type's counter and
    /// past every value the key property already holds.
    private func keyBase(_ plan: TypeMigration, in table: String) throws -> Int64 {
        guard let key = plan.new?.primaryKeyProperty, key.isAutoIncrement else { return 0 }
        let counter = try Int64.fetchOne(
            db, sql: "SELECT \"lastKey\" FROM \(TableLayout.typesTable) WHERE \"name\" = ?", arguments: [plan.name]) ?? 0
        var base = counter
        if let source = plan.property(key.name)?.old, plan.property(key.name)?.copies == true {
            base = max(counter, try Int64.fetchOne(db, sql: "SELECT max(\(TableLayout.column(source.name))) FROM \(table)") ?? 0)
        }
        // Keys are generated up to base + the row count; past Int64.max SQL sums turn into floating point.
        let rows = try Int64.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
        if base.addingReportingOverflow(rows).overflow {
            throw KuraError.store(.counterExhausted, """
                the autoIncrement counter of \(plan.name) (#types.lastKey) would pass Int64.max: \
                keys for \(rows) objects do not fit after \(base)
                """)
        }
        return base
    }

    /// Moves the autoIncrement key counters of changed types past the keys they now hold (generated,
    /// taken over from a property that becomes the key, or set by a migration block).
    func raiseKeyCounters() throws {
        for plan in plans {
            guard plan.old != nil, !plan.changes.isEmpty, let key = plan.new?.primaryKeyProperty, key.isAutoIncrement else { continue }
            try db.execute(
            sql: """
                UPDATE \(TableLayout.typesTable) SET "lastKey" = max("lastKey",
                    coalesce((SELECT max(\(TableLayout.column(key.name))) FROM \(TableLayout.objectTable(plan.name))), 0))
                WHERE "name" = ?
                """,
                arguments: [plan.name])
        }
    }
}
