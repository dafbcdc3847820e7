/// Checks the identifiers of a PostgreSQL realm, one query or two per type: primary key values
/// unique, and the counters of `#types` at or above the highest internal object id and
/// autoIncrement key in use and below Int64.max. Counts the objects on the way.
struct PostgresKeyCheck {
    let queries: PostgresCheckQueries
    let findings: FindingCollector
    let layout: CheckedLayout

    /// Runs the checks; returns the number of objects in the types it could read.
    func run() -> Int {
        var objects = 0
        for type in layout.types {
            let place = CheckFinding.Place(type: type.name, table: type.name)
            findings.attempt(place, type.name) { objects += try check(type, place) }
        }
        return objects
    }

    private func check(_ type: ObjectSchema, _ place: CheckFinding.Place) throws -> Int {
        let table = TableLayout.objectTable(type.name)
        let counters = layout.counters[type.name]
        let row = try queries.rows("SELECT count(*), max(\(TableLayout.idColumn)) FROM \(table)").first ?? []
        let objects = row.first?.objectId.map { Int(truncatingIfNeeded: $0) } ?? 0
        if row.count == 2, let highest = row[1].objectId, let last = counters?.lastObjectId, last < highest {
            findings.add(.counterBehind, place, type.name, CheckWording.objectCounterBehind(last, highest))
        }
        if counters?.lastObjectId == Int64.max {
            findings.add(
                .counterExhausted, place, type.name,
                CheckWording.exhausted("object id counter (#types.lastObjectId)", "\(type.name) objects"))
        }
        guard let key = type.primaryKeyProperty,
            layout.sites.contains(where: { $0.ownerType == type.name && $0.property == key && $0.tag == nil })
        else { return objects }
        let label = "\(type.name).\(key.name)"
        var keyPlace = place
        keyPlace.property = key.name
        let column = TableLayout.column(key.name)
        let id = TableLayout.idColumn
        let duplicates = try queries.rows("""
            SELECT \(column), count(*), string_agg(\(id)::text, ', ' ORDER BY \(id)) FROM \(table)
            WHERE \(column) IS NOT NULL GROUP BY 1 HAVING count(*) > 1 ORDER BY 1
            """)
        for duplicate in duplicates where duplicate.count == 3 {
            let stored = duplicate[0]
            let shown = (try? PostgresLayout.read(stored, as: key.type)).flatMap { try? ScalarCodec.decode($0, as: key.type.nonOptional) }?
                .description ?? ValueColumn.describe(postgres: stored, textual: true)
            let count = Counted(Int(truncatingIfNeeded: duplicate[1].objectId ?? 0), "object")
            let ids: String = if case .text(let text) = duplicate[2] { text } else { "" }
            findings.add(.duplicateKey, keyPlace, label, "key \(shown) is held by \(count): \(ids)")
        }
        if key.isAutoIncrement, let last = counters?.lastKey,
            let highest = try queries.value("SELECT max(\(column)) FROM \(table)")?.objectId, last < highest
        {
            findings.add(.counterBehind, keyPlace, label, CheckWording.keyCounterBehind(last, highest))
        }
        if key.isAutoIncrement, counters?.lastKey == Int64.max {
            findings.add(
                .counterExhausted, keyPlace, label, CheckWording.exhausted("autoIncrement counter (#types.lastKey)", "\(type.name) keys"))
        }
        return objects
    }
}
