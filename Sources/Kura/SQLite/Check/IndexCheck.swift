import GRDB

/// Checks that every index Kura makes is there as Kura makes it: the unique index that keeps
/// primary keys unique, the indexes on links, owners and `indexed` properties, and the one on
/// `#mixed`. A missing index loses no data, but a missing unique index lets duplicate keys in and
/// a missing link index makes deletion and backlinks scan whole tables.
struct IndexCheck {
    let db: Database
    let findings: FindingCollector
    let layout: CheckedLayout

    func run() {
        findings.attempt(.init(), "indexes") {
            let actual = try actualIndexes()
            for statement in expectedIndexes() {
                guard let name = CheckWording.indexName(in: statement) else { continue }
                let (label, place) = CheckWording.indexSite(name)
                guard let found = actual[name] else {
                    // Realms made before the link indexes existed lack them and are sound: their
                    // deletes scan the mixed values instead.
                    if name.hasSuffix(Self.linkIndexSuffix) { continue }
                    findings.add(.missingIndex, place, label, "the index \(TableLayout.quote(name)) is missing")
                    continue
                }
                if Self.normalized(found) != Self.normalized(statement) {
                    findings.add(
                        .missingIndex, place, label,
                        "the index \(TableLayout.quote(name)) is not the schema's: found `\(found)`, expected `\(statement)`")
                }
            }
        }
    }

    /// The suffix of the partial indexes on mixed values that are links (`SchemaInstaller.linkIndexSQL`).
    static let linkIndexSuffix = "#link"

    /// The statements that create each index the schema needs for the tables that are there.
    private func expectedIndexes() -> [String] {
        var expected: [String] = layout.hasMixedTable ? [SchemaInstaller.mixedIndexSQL, SchemaInstaller.mixedLinkIndexSQL] : []
        for type in layout.types {
            expected += SchemaInstaller.objectTableSQL(for: type).indexes
            for property in type.storedProperties {
                guard let site = ValueColumn.elements(property, of: type.name),
                      layout.sites.contains(where: { $0.label == site.label })
                else { continue }
                expected += SchemaInstaller.collectionTableSQL(type.name, property).filter { $0.hasPrefix("CREATE INDEX") }
            }
        }
        return expected
    }

    /// The SQL of every index in the file that was made by a statement, by name.
    private func actualIndexes() throws -> [String: String] {
        var indexes: [String: String] = [:]
        let rows = try Row.fetchAll(db, sql: "SELECT \"name\", \"sql\" FROM sqlite_master WHERE \"type\" = 'index' AND \"sql\" IS NOT NULL")
        for row in rows {
            guard let name = row.checkedText(0), let sql = row.checkedText(1) else { continue }
            indexes[name] = sql
        }
        return indexes
    }

    /// A statement with runs of white space made one space, as SQLite keeps the text it was given.
    static func normalized(_ statement: String) -> String {
        statement.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
