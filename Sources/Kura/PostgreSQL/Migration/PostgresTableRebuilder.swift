/// Moves a PostgreSQL realm's tables from the old schema's layout to the new one's, in SQL, inside
/// the migration's transaction: a table that changes is renamed aside, made anew exactly as a new
/// realm would have it, filled with one `INSERT … SELECT` from the old one, and the old one is
/// dropped at the end.
struct PostgresTableRebuilder {
    let session: PostgresSession
    let plans: [TypeMigration]
    let columns: ColumnSources

    private var layout: PostgresMigrationLayout { PostgresMigrationLayout() }

    /// Renames the replaced and removed tables aside and drops their named indexes, whose names the
    /// new tables' indexes take (the primary key constraints' indexes, named by the server, stay).
    func setAside(_ old: OldLayout) throws(KuraError) {
        for (name, aside) in old.setAside {
            try session.execute("ALTER TABLE \(TableLayout.quote(name)) RENAME TO \(TableLayout.quote(aside))")
            let indexes = try session.rows("""
                SELECT ci.relname FROM pg_catalog.pg_index AS i
                JOIN pg_catalog.pg_class AS ci ON ci.oid = i.indexrelid
                JOIN pg_catalog.pg_class AS t ON t.oid = i.indrelid
                JOIN pg_catalog.pg_namespace AS n ON n.oid = t.relnamespace
                WHERE n.nspname = current_schema() AND t.relname = $1 AND NOT i.indisprimary
                """, [.text(aside)])
            for row in indexes {
                guard case .text(let index)? = row.first else { continue }
                try session.execute("DROP INDEX \(TableLayout.quote(index))")
            }
        }
    }

    /// Creates the new and rebuilt tables and copies the old values into them. Primary key indexes
    /// come later (`createKeyIndexes`), after a migration block may have mended the keys.
    func build(_ old: OldLayout) throws(KuraError) {
        for plan in plans {
            guard let new = plan.new else { continue }
            if plan.rebuildsObjectTable(in: layout) {
                let statements = PostgresSchemaInstaller.objectTableSQL(for: new)
                // The first statement creates the table, the others its indexes.
                guard let create = statements.first else { continue }
                try session.execute(create)
                if plan.old != nil { try copyObjects(plan, from: old.objectTable(plan.name)) }
                // Link and property indexes serve the block's lookups and unlinking; the key's unique
                // index waits until the block has had its chance to mend duplicates.
                for index in statements.dropFirst() where !PostgresMigrationLayout.isUniqueIndex(index) {
                    try session.execute(index)
                }
            }
            for property in plan.properties where property.new.type.isCollection && !plan.keepsCollectionTable(of: property, in: layout) {
                for statement in PostgresSchemaInstaller.collectionTableSQL(new.name, property.new) { try session.execute(statement) }
                if property.copies, let source = property.old {
                    try copyCollection(property.new, of: new.name, from: old.collectionTable(new.name, source.name))
                }
            }
            try PostgresSchemaInstaller.register(new.name, in: session)
        }
        try raiseKeyCounters()
        // Writers make their change-log triggers again when the layout version moves.
        try PostgresSchemaInstaller.raiseLayoutVersion(session)
    }

    /// Creates the primary key indexes of the object tables made anew.
    func createKeyIndexes() throws(KuraError) {
        for plan in plans where plan.rebuildsObjectTable(in: layout) {
            guard let new = plan.new else { continue }
            for index in PostgresSchemaInstaller.objectTableSQL(for: new).dropFirst() where PostgresMigrationLayout.isUniqueIndex(index) {
                try session.execute(index)
            }
        }
    }

    /// Drops the tables set aside, and the type ids of removed types.
    func dropSetAside(_ old: OldLayout) throws(KuraError) {
        for (_, aside) in old.setAside {
            try session.execute("DROP TABLE \(TableLayout.quote(aside))")
        }
        for plan in plans where plan.new == nil {
            try session.execute("DELETE FROM \(TableLayout.typesTable) WHERE \"name\" = $1", [.text(plan.name)])
        }
    }

    private func copyObjects(_ plan: TypeMigration, from table: String) throws(KuraError) {
        let selection = try columns.selection(for: plan, keyBase: try keyBase(plan, in: table))
        try session.execute("""
            INSERT INTO \(TableLayout.objectTable(plan.name)) (\(selection.columns.joined(separator: ", ")))
            SELECT \(selection.expressions.joined(separator: ", ")) FROM \(table) ORDER BY \(TableLayout.idColumn)
            """, selection.arguments)
    }

    /// Carries out a migration block's rename: the old property's values, from the tables set aside,
    /// replace the new property's.
    func moveValues(of source: Property, to target: Property, in type: String, from old: OldLayout) throws(KuraError) {
        if target.type.isCollection {
            try session.execute("DELETE FROM \(TableLayout.collectionTable(type, target.name))")
            try copyCollection(target, of: type, from: old.collectionTable(type, source.name))
            return
        }
        var pairs = [(TableLayout.column(target.name), TableLayout.column(source.name))]
        if target.type == .mixed { pairs.append((TableLayout.tagColumn(target.name), TableLayout.tagColumn(source.name))) }
        let table = TableLayout.objectTable(type)
        let id = TableLayout.idColumn
        let assignments = pairs.map { column, oldColumn in
            "\(column) = (SELECT \(oldColumn) FROM \(old.objectTable(type)) AS \"old\" WHERE \"old\".\(id) = \(table).\(id))"
        }
        try session.execute("UPDATE \(table) SET \(assignments.joined(separator: ", "))")
    }

    private func copyCollection(_ property: Property, of type: String, from table: String) throws(KuraError) {
        let list = TableLayout.collectionColumns(of: property.type).joined(separator: ", ")
        // Rows are numbered anew in the old order: the order a set's elements are read in.
        try session.execute("""
            INSERT INTO \(TableLayout.collectionTable(type, property.name)) (\(list))
            SELECT \(list) FROM \(table) ORDER BY \(PostgresLayout.rowColumn)
            """)
    }

    /// The number after which keys generated for existing objects start: past the type's counter and
    /// past every value the key property already holds.
    private func keyBase(_ plan: TypeMigration, in table: String) throws(KuraError) -> Int64 {
        guard let key = plan.new?.primaryKeyProperty, key.isAutoIncrement else { return 0 }
        let counter = try session.value(
            "SELECT \"lastKey\" FROM \(TableLayout.typesTable) WHERE \"name\" = $1", [.text(plan.name)])?.objectId ?? 0
        var base = counter
        if let source = plan.property(key.name)?.old, plan.property(key.name)?.copies == true {
            base = max(counter, try session.value("SELECT max(\(TableLayout.column(source.name))) FROM \(table)")?.objectId ?? 0)
        }
        // Keys are generated up to base + the row count, which bigint must hold.
        let rows = try session.value("SELECT count(*) FROM \(table)")?.objectId ?? 0
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
    func raiseKeyCounters() throws(KuraError) {
        for plan in plans {
            guard plan.old != nil, !plan.changes.isEmpty, let key = plan.new?.primaryKeyProperty, key.isAutoIncrement else { continue }
            try session.execute("""
                UPDATE \(TableLayout.typesTable) SET "lastKey" = greatest("lastKey",
                    coalesce((SELECT max(\(TableLayout.column(key.name))) FROM \(TableLayout.objectTable(plan.name))), 0))
                WHERE "name" = $1
                """, [.text(plan.name)])
        }
    }
}
