import GRDB

/// Checks a realm's metadata (`#meta`, `#types`, `#mixed`, the stored schema) and that every type
/// and collection property has its table with the columns the schema gives it.
struct LayoutCheck {
    let db: Database
    let findings: FindingCollector

    private static let metaColumns = [("key", "TEXT"), ("value", "ANY")]
    private static let typesColumns = [("id", "INTEGER"), ("name", "TEXT"), ("lastObjectId", "INTEGER"), ("lastKey", "INTEGER")]
    private static let mixedColumns = [
        (TableLayout.mixedContainerColumn, "INTEGER"), (TableLayout.positionColumn, "INTEGER"), (TableLayout.keyColumn, "TEXT"),
        (TableLayout.tagColumn, "INTEGER"), (TableLayout.valueColumn, "ANY"),
    ]

    /// The layout the data checks may use; `nil` when the stored schema cannot be read, which
    /// leaves nothing to check the data against.
    func run() throws -> CheckedLayout? {
        let metaPlace = CheckFinding.Place(table: "#meta")
        guard try columns(of: "#meta", expected: Self.metaColumns.map { (TableLayout.quote($0.0), [$0.1]) }, "#meta", metaPlace)
            != nil
        else { return nil }
        let meta = try Row.fetchAll(db, sql: "SELECT \"key\", \"value\" FROM \(TableLayout.metaTable)")
        var values: [String: StoredCell] = [:]
        for row in meta { if let key = row.checkedText(0) { values[key] = StoredCell(row[1] as DatabaseValue) } }
        let shared = LayoutFindings(findings: findings)
        let schemaText: String? = if case .text(let text)? = values["schema"] { text } else { nil }
        guard let schema = shared.storedSchema(schemaText) else { return nil }
        var layout = CheckedLayout(schema: schema)
        shared.meta(
            values, schema: schema, formatVersion: SchemaInstaller.formatVersion, into: &layout,
            integer: { Int64.fromDatabaseValue($0.databaseValue) }, counter: { if case .integer(let number) = $0 { number } else { nil } }, show: \.sqlDescription)
        findings.attempt(.init(table: "#types"), "#types") { try readTypes(schema, into: &layout) }
        findings.attempt(.init(table: "#mixed"), "#mixed") {
            let expected = Self.mixedColumns.map { ($0.0, [$0.1]) }
            layout.hasMixedTable = try columns(of: "#mixed", expected: expected, "#mixed", .init(table: "#mixed"))?.count == 5
        }
        for type in schema.types {
            findings.attempt(.init(type: type.name, table: type.name), type.name) { try checkTables(of: type, into: &layout) }
        }
        if layout.hasMixedTable { layout.sites.append(.mixedContainers) }
        findings.attempt(metaPlace, "#meta") { try checkStrictness(schema, into: &layout) }
        return layout
    }

    /// Reports the realm's tables that are not STRICT (every table Kura makes is): SQLite lets their
    /// columns hold values of any type, so the value checks test every column of them.
    private func checkStrictness(_ schema: Schema, into layout: inout CheckedLayout) throws {
        var places: [String: (label: String, place: CheckFinding.Place)] = [:]
        for table in ["#meta", "#types", "#mixed"] { places[table] = (table, .init(table: table)) }
        for type in schema.types {
            places[type.name] = (type.name, .init(type: type.name, table: type.name))
            for property in type.storedProperties {
                if let site = ValueColumn.elements(property, of: type.name) { places[site.label] = (site.label, site.place) }
            }
        }
        let loose = try Row.fetchAll(db, sql: """
            SELECT "name" FROM pragma_table_list WHERE "schema" = 'main' AND "type" = 'table' AND "strict" = 0 ORDER BY "name"
            """)
        for row in loose {
            guard let name = row.checkedText(0), let (label, place) = places[name] else { continue }
            let quoted = TableLayout.quote(name)
            layout.looseTables.insert(quoted)
            findings.add(.columnMismatch, place, label, "the table \(quoted) is not STRICT, so its columns may hold values of any type")
        }
    }

    private func readTypes(_ schema: Schema, into layout: inout CheckedLayout) throws {
        let place = CheckFinding.Place(table: "#types")
        let expected = Self.typesColumns.map { (TableLayout.quote($0.0), [$0.1]) }
        guard try columns(of: "#types", expected: expected, "#types", place)?.count == expected.count else { return }
        let rows = try Row.fetchAll(db, sql: "SELECT \"id\", \"name\", \"lastObjectId\", \"lastKey\" FROM \(TableLayout.typesTable)")
        let cells = rows.map { row in (0..<4).map { StoredCell(row[$0] as DatabaseValue) } }
        LayoutFindings(findings: findings).types(cells, schema: schema, into: &layout)
    }

    /// Checks the tables of `type` and adds its usable value columns to `layout`.
    private func checkTables(of type: ObjectSchema, into layout: inout CheckedLayout) throws {
        let place = CheckFinding.Place(type: type.name, table: type.name)
        let (names, positions) = TableLayout.propertyColumns(of: type)
        var expected = [(TableLayout.idColumn, ["INTEGER"])] + names.map { ($0, ["INTEGER"]) }
        for (property, index) in positions { expected[index + 1].1 = TableLayout.acceptedSQLTypes(property.type) }
        if let present = try columns(of: type.name, expected: expected, type.name, place), present.contains(TableLayout.idColumn) {
            layout.types.append(type)
            for (property, _) in positions {
                let site = ValueColumn.column(property, of: type.name)
                if present.contains(site.value), site.tag.map(present.contains) ?? true { layout.sites.append(site) }
            }
        }
        for property in type.storedProperties {
            guard let site = ValueColumn.elements(property, of: type.name), let element = property.type.element else { continue }
            let expected = TableLayout.collectionColumns(of: property.type).map { column in
                (column, column == TableLayout.keyColumn ? ["TEXT"] : column == TableLayout.valueColumn ? TableLayout.acceptedSQLTypes(element) : ["INTEGER"])
            }
            if try columns(of: site.label, expected: expected, site.label, site.place)?.count == expected.count {
                layout.sites.append(site)
            }
        }
    }

    /// Compares table `name`'s columns with `expected` (quoted names, the declared types accepted,
    /// the current one first), reporting what differs; returns the expected columns that are there
    /// with an accepted type, or `nil` when there is no such table.
    private func columns(
        of name: String, expected: [(String, [String])], _ label: String, _ place: CheckFinding.Place
    ) throws -> Set<String>? {
        let actual = try db.tableExists(name) ? try db.columns(in: name).map { (TableLayout.quote($0.name), $0.type.uppercased()) } : nil
        return LayoutFindings(findings: findings).columns(of: name, actual: actual, expected: expected, label, place)
    }
}
