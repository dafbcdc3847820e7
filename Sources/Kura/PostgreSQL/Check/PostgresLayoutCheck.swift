/// Checks a PostgreSQL realm's metadata (`#meta`, `#types`, `#mixed`, the stored schema) and that
/// every type and collection property has its table with the columns the schema gives it, of the
/// PostgreSQL types `PostgresSchemaInstaller` makes them with.
struct PostgresLayoutCheck {
    let queries: PostgresCheckQueries
    let findings: FindingCollector

    private static let metaColumns = [("key", "text"), ("value", "text")]
    private static let typesColumns = [("id", "bigint"), ("name", "text"), ("lastObjectId", "bigint"), ("lastKey", "bigint")]
    private static let mixedColumns = [
        (TableLayout.mixedContainerColumn, "bigint"), (TableLayout.positionColumn, "bigint"), (TableLayout.keyColumn, "bytea"),
        (TableLayout.tagColumn, "bigint"), (TableLayout.valueColumn, "bytea"),
    ]

    /// The layout the data checks may use; `nil` when the stored schema cannot be read, which
    /// leaves nothing to check the data against.
    func run() throws -> CheckedLayout? {
        let tables = try actualColumns()
        let shared = LayoutFindings(findings: findings)
        let metaPlace = CheckFinding.Place(table: "#meta")
        let metaExpected = Self.metaColumns.map { (TableLayout.quote($0.0), [$0.1]) }
        guard shared.columns(of: "#meta", actual: tables["#meta"], expected: metaExpected, "#meta", metaPlace)?.count == 2
        else { return nil }
        var values: [String: StoredCell] = [:]
        for row in try queries.rows("SELECT \"key\", \"value\" FROM \(TableLayout.metaTable)") where row.count == 2 {
            if case .text(let key) = row[0] { values[key] = row[1] }
        }
        let schemaText: String? = if case .text(let text)? = values["schema"] { text } else { nil }
        guard let schema = shared.storedSchema(schemaText) else { return nil }
        var layout = CheckedLayout(schema: schema)
        let integer = { (cell: StoredCell) -> Int64? in if case .text(let text) = cell { Int64(text) } else { nil } }
        shared.meta(
            values, schema: schema, formatVersion: PostgresSchemaInstaller.formatVersion, into: &layout,
            integer: integer, counter: integer, show: { if case .text(let text) = $0 { text } else { $0.sqlDescription } })
        findings.attempt(.init(table: "#types"), "#types") {
            let expected = Self.typesColumns.map { (TableLayout.quote($0.0), [$0.1]) }
            guard shared.columns(of: "#types", actual: tables["#types"], expected: expected, "#types", .init(table: "#types"))?.count
                == expected.count
            else { return }
            let rows = try queries.rows("SELECT \"id\", \"name\", \"lastObjectId\", \"lastKey\" FROM \(TableLayout.typesTable)")
            shared.types(rows, schema: schema, into: &layout)
        }
        let mixedExpected = Self.mixedColumns.map { ($0.0, [$0.1]) }
        layout.hasMixedTable =
            shared.columns(of: "#mixed", actual: tables["#mixed"], expected: mixedExpected, "#mixed", .init(table: "#mixed"))?.count == 5
        for type in schema.types { checkTables(of: type, tables, into: &layout) }
        if layout.hasMixedTable { layout.sites.append(.mixedContainers) }
        return layout
    }

    /// Checks the tables of `type` and adds its usable value columns to `layout`.
    private func checkTables(of type: ObjectSchema, _ tables: [String: [(String, String)]], into layout: inout CheckedLayout) {
        let shared = LayoutFindings(findings: findings)
        let place = CheckFinding.Place(type: type.name, table: type.name)
        let (names, positions) = TableLayout.propertyColumns(of: type)
        var expected = [(TableLayout.idColumn, ["bigint"])] + names.map { ($0, ["bigint"]) }
        for (property, index) in positions { expected[index + 1].1 = [PostgresLayout.sqlType(property.type)] }
        if let present = shared.columns(of: type.name, actual: tables[type.name], expected: expected, type.name, place),
            present.contains(TableLayout.idColumn)
        {
            layout.types.append(type)
            for (property, _) in positions {
                let site = ValueColumn.column(property, of: type.name)
                if present.contains(site.value), site.tag.map(present.contains) ?? true { layout.sites.append(site) }
            }
        }
        for property in type.storedProperties {
            guard let site = ValueColumn.elements(property, of: type.name), let element = property.type.element else { continue }
            let expected = [(PostgresLayout.rowColumn, ["bigint"])] + TableLayout.collectionColumns(of: property.type).map { column in
                (column, [column == TableLayout.keyColumn ? "bytea" : column == TableLayout.valueColumn ? PostgresLayout.sqlType(element) : "bigint"])
            }
            if shared.columns(of: site.label, actual: tables[site.label], expected: expected, site.label, site.place)?.count == expected.count {
                layout.sites.append(site)
            }
        }
    }

    /// Every table of the realm's schema with its columns (quoted names and types, in order), by
    /// unquoted name, from the catalog in one query.
    private func actualColumns() throws -> [String: [(String, String)]] {
        var tables: [String: [(String, String)]] = [:]
        let rows = try queries.rows("""
            SELECT c.relname::text, a.attname::text, format_type(a.atttypid, a.atttypmod)
            FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
            JOIN pg_catalog.pg_attribute AS a ON a.attrelid = c.oid
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY c.relname, a.attnum
            """, [.text(queries.session.location.schema)])
        for row in rows where row.count == 3 {
            guard case .text(let table) = row[0], case .text(let column) = row[1], case .text(let type) = row[2] else { continue }
            tables[table, default: []].append((TableLayout.quote(column), type))
        }
        return tables
    }
}
