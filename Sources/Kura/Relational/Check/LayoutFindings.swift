/// What every engine's layout check concludes from the metadata and table definitions its queries
/// read: the stored schema, `#meta`'s values, the rows of `#types`, and each table's columns
/// against the ones the schema gives it. The engine reads; this reports and fills `CheckedLayout`.
struct LayoutFindings {
    let findings: FindingCollector

    private static let metaPlace = CheckFinding.Place(table: "#meta")

    /// The stored schema from `#meta`'s `schema` text; `nil` (and a finding) when there is none or
    /// it cannot be read.
    func storedSchema(_ text: String?) -> Schema? {
        guard let text else {
            findings.add(.metadata, Self.metaPlace, "#meta", "the realm has no stored schema")
            return nil
        }
        do {
            return try Schema(storedYAML: text)
        } catch {
            findings.add(.metadata, Self.metaPlace, "#meta", "the stored schema cannot be read: \(error)")
            return nil
        }
    }

    /// Checks `#meta`'s values against `schema` and `formatVersion`: `integer` reads a version,
    /// `counter` the container counter, `show` a value as a finding shows it.
    func meta(
        _ values: [String: StoredCell], schema: Schema, formatVersion: Int64, into layout: inout CheckedLayout,
        integer: (StoredCell) -> Int64?, counter: (StoredCell) -> Int64?, show: (StoredCell) -> String
    ) {
        let place = Self.metaPlace
        if values["formatVersion"].flatMap(integer) != formatVersion {
            let found = values["formatVersion"].map(show) ?? "missing"
            findings.add(.metadata, place, "#meta", "formatVersion is \(found), expected \(formatVersion)")
        }
        if values["schemaVersion"].flatMap(integer) != schema.version {
            let found = values["schemaVersion"].map(show) ?? "missing"
            findings.add(.metadata, place, "#meta", "schemaVersion is \(found), but the stored schema has version \(schema.version)")
        }
        if let last = values["lastMixedContainer"].flatMap(counter) {
            layout.lastMixedContainer = last
            if last == Int64.max {
                findings.add(
                    .counterExhausted, place, "#meta",
                    CheckWording.exhausted("container counter (lastMixedContainer)", "nested mixed lists or maps"))
            }
        } else {
            let found = values["lastMixedContainer"].map(show) ?? "missing"
            findings.add(.metadata, place, "#meta", "lastMixedContainer is \(found), expected an integer")
        }
    }

    /// Takes the type ids and counters from the rows of `#types` (id, name, lastObjectId, lastKey)
    /// and checks that they and the schema name the same types.
    func types(_ rows: [[StoredCell]], schema: Schema, into layout: inout CheckedLayout) {
        let place = CheckFinding.Place(table: "#types")
        for row in rows where row.count == 4 {
            guard case .integer(let id) = row[0], case .text(let name) = row[1] else { continue }
            layout.typeIds[name] = id
            if case .integer(let lastObjectId) = row[2], case .integer(let lastKey) = row[3] {
                layout.counters[name] = (lastObjectId, lastKey)
            } else {
                let found = "\(row[2].sqlDescription) and \(row[3].sqlDescription)"
                findings.add(.metadata, place, "#types", "the counters of type \(name) are \(found), not integers")
            }
            if schema[type: name] == nil {
                findings.add(.metadata, place, "#types", "type \(name) (id \(id)) has a row, but the schema has no such type")
            }
        }
        for type in schema.types where layout.typeIds[type.name] == nil {
            findings.add(.metadata, place, "#types", "no row for type \(type.name)")
        }
    }

    /// Compares the columns of table `name` (`actual`: quoted names and declared types, in order;
    /// `nil` when the table is missing) with `expected` (quoted names, the declared types accepted,
    /// the current one first), reporting what differs; returns the expected columns that are there
    /// with an accepted type, or `nil` when there is no such table.
    func columns(
        of name: String, actual: [(String, String)]?, expected: [(String, [String])], _ label: String, _ place: CheckFinding.Place
    ) -> Set<String>? {
        let quoted = TableLayout.quote(name)
        guard let actual else {
            findings.add(.missingTable, place, label, "the table \(quoted) is missing")
            return nil
        }
        let actualTypes = Dictionary(actual, uniquingKeysWith: { first, _ in first })
        let expectedNames = Set(expected.map(\.0))
        var usable: Set<String> = []
        for (column, types) in expected {
            guard let found = actualTypes[column] else {
                findings.add(.columnMismatch, place, label, "the table \(quoted) has no column \(column)")
                continue
            }
            if types.contains(found) {
                usable.insert(column)
            } else {
                findings.add(.columnMismatch, place, label, "column \(column) of \(quoted) is \(found), the schema needs \(types[0])")
            }
        }
        for (column, _) in actual where !expectedNames.contains(column) {
            findings.add(.columnMismatch, place, label, "the table \(quoted) has a column \(column) the schema does not define")
        }
        if usable.count == expected.count, actual.count == expected.count, actual.map(\.0) != expected.map(\.0) {
            findings.add(.columnMismatch, place, label, "the columns of \(quoted) are not in the schema's order")
        }
        return usable
    }
}
