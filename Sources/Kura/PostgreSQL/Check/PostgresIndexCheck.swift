import Foundation

/// Checks that every index Kura makes in a PostgreSQL realm is there as Kura makes it (the unique
/// index that keeps primary keys unique, the indexes on links, owners and `indexed` properties,
/// the ones on `#mixed`), that every table has its primary key, and, in place of SQLite's
/// integrity check, that PostgreSQL holds every index of the realm valid: one whose build failed
/// or was interrupted is not used, nor kept up to date.
struct PostgresIndexCheck {
    let queries: PostgresCheckQueries
    let findings: FindingCollector

    /// How findings of PostgreSQL's own integrity are labelled.
    static let integrityLabel = "PostgreSQL integrity check"

    /// One index of the realm's schema as the catalog holds it.
    private struct Found {
        let shape: PostgresIndexShape
        let isValid: Bool
        let isPrimary: Bool
        let definition: String
    }

    /// Reports the indexes PostgreSQL holds invalid, before anything else is checked.
    func checkIntegrity() {
        findings.attempt(.init(), Self.integrityLabel) {
            for index in try actualIndexes() where !index.isValid {
                findings.add(
                    .integrity, .init(), Self.integrityLabel,
                    "the index \(TableLayout.quote(index.shape.name)) of \(TableLayout.quote(index.shape.table)) is not valid, "
                        + "so PostgreSQL neither uses it nor keeps it up to date")
            }
        }
    }

    /// Checks Kura's indexes and the primary keys of the tables of `layout`.
    func run(_ layout: CheckedLayout) {
        findings.attempt(.init(), "indexes") {
            let actual = try actualIndexes()
            let byName = Dictionary(actual.map { ($0.shape.name, $0) }, uniquingKeysWith: { first, _ in first })
            for (table, columns, label, place) in primaryKeys(layout) {
                let found = actual.contains { $0.isPrimary && $0.shape.table == table && $0.shape.columns == columns }
                if !found {
                    let list = columns.map(TableLayout.quote).joined(separator: ", ")
                    findings.add(.missingIndex, place, label, "the table \(TableLayout.quote(table)) has no primary key (\(list))")
                }
            }
            for statement in expectedIndexes(layout) {
                guard let expected = PostgresIndexShape(statement: statement) else { continue }
                let (label, place) = CheckWording.indexSite(expected.name)
                guard let found = byName[expected.name] else {
                    findings.add(.missingIndex, place, label, "the index \(TableLayout.quote(expected.name)) is missing")
                    continue
                }
                if found.shape != expected {
                    findings.add(
                        .missingIndex, place, label,
                        "the index \(TableLayout.quote(expected.name)) is not the schema's: found `\(found.definition)`, expected `\(statement)`")
                }
            }
        }
    }

    /// The statements that create each index the schema needs for the tables that are there.
    private func expectedIndexes(_ layout: CheckedLayout) -> [String] {
        var expected: [String] = []
        if layout.hasMixedTable {
            expected.append("""
                CREATE INDEX \(TableLayout.quote("#mixed#container")) ON \(TableLayout.mixedTable) \
                (\(TableLayout.mixedContainerColumn), \(TableLayout.positionColumn), \(TableLayout.keyColumn))
                """)
            expected.append(PostgresSchemaInstaller.linkIndexSQL(
                name: "#mixed#link", table: TableLayout.mixedTable, tag: TableLayout.tagColumn, value: TableLayout.valueColumn))
        }
        for type in layout.types {
            expected += PostgresSchemaInstaller.objectTableSQL(for: type).dropFirst()
            for property in type.storedProperties {
                guard let site = ValueColumn.elements(property, of: type.name), layout.sites.contains(where: { $0.label == site.label })
                else { continue }
                expected += PostgresSchemaInstaller.collectionTableSQL(type.name, property).filter { $0.hasPrefix("CREATE INDEX") }
            }
        }
        return expected
    }

    /// The primary key every table of `layout` has: the internal id of an object table, the owner
    /// and position or key of a list's or map's table.
    private func primaryKeys(_ layout: CheckedLayout) -> [(String, [String], String, CheckFinding.Place)] {
        var keys: [(String, [String], String, CheckFinding.Place)] = []
        for type in layout.types { keys.append((type.name, ["#id"], type.name, .init(type: type.name, table: type.name))) }
        for site in layout.sites where site.ownerType != nil && site.property?.type.isCollection == true {
            if site.position != nil { keys.append((site.label, ["#owner", "#pos"], site.label, site.place)) }
            if site.key != nil { keys.append((site.label, ["#owner", "#key"], site.label, site.place)) }
        }
        return keys
    }

    /// Every index on the tables of the realm's schema, from the catalog.
    private func actualIndexes() throws -> [Found] {
        let separator = "\u{1F}"
        let rows = try queries.rows("""
            SELECT i.relname::text, t.relname::text, x.indisunique, x.indisvalid AND x.indisready, x.indisprimary,
                (SELECT string_agg(a.attname::text, chr(31) ORDER BY k.ord)
                    FROM unnest(x.indkey::smallint[]) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_catalog.pg_attribute AS a ON a.attrelid = x.indrelid AND a.attnum = k.attnum),
                pg_catalog.pg_get_expr(x.indpred, x.indrelid), pg_catalog.pg_get_indexdef(x.indexrelid)
            FROM pg_catalog.pg_index AS x JOIN pg_catalog.pg_class AS i ON i.oid = x.indexrelid
            JOIN pg_catalog.pg_class AS t ON t.oid = x.indrelid JOIN pg_catalog.pg_namespace AS n ON n.oid = t.relnamespace
            WHERE n.nspname = $1 ORDER BY 1
            """, [.text(queries.session.location.schema)])
        return rows.compactMap { row in
            guard row.count == 8, case .text(let name) = row[0], case .text(let table) = row[1] else { return nil }
            let columns: [String] = if case .text(let list) = row[5] { list.components(separatedBy: separator) } else { [] }
            let condition: String? = if case .text(let text) = row[6] { text } else { nil }
            let definition: String = if case .text(let text) = row[7] { text } else { "" }
            let shape = PostgresIndexShape(name: name, table: table, isUnique: row[2].objectId == 1, columns: columns, condition: condition)
            return Found(shape: shape, isValid: row[3].objectId == 1, isPrimary: row[4].objectId == 1, definition: definition)
        }
    }
}
