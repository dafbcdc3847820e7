import GRDB

/// Checks identifiers, one query or two per type: primary key values unique, and the counters of
/// `#types` at or above the highest internal object id and autoIncrement key in use (a counter
/// behind would hand out an identifier twice) and below Int64.max (a counter there can hand out
/// none). Counts the objects on the way.
struct KeyCheck {
    let db: Database
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
        let row = try Row.fetchOne(db, sql: "SELECT count(*), max(\(TableLayout.idColumn)) FROM \(table)")
        let objects = row?.checkedCount(0) ?? 0
        if let highest = row?.checkedInteger(1), let last = counters?.lastObjectId, last < highest {
            findings.add(
                .counterBehind, place, type.name,
                CheckWording.objectCounterBehind(last, highest))
        }
        if counters?.lastObjectId == Int64.max {
            findings.add(.counterExhausted, place, type.name, CheckWording.exhausted("object id counter (#types.lastObjectId)", "\(type.name) objects"))
        }
        guard let key = type.primaryKeyProperty,
            layout.sites.contains(where: { $0.ownerType == type.name && $0.property == key && $0.tag == nil })
        else { return objects }
        let label = "\(type.name).\(key.name)"
        var keyPlace = place
        keyPlace.property = key.name
        let column = TableLayout.column(key.name)
        let duplicates = try Row.fetchCursor(db, sql: """
            SELECT \(column), count(*), group_concat(\(TableLayout.idColumn), ', ') FROM \(table)
            WHERE \(column) IS NOT NULL GROUP BY 1 HAVING count(*) > 1 ORDER BY 1
            """)
        while let duplicate = try duplicates.next() {
            let stored: DatabaseValue = duplicate[0]
            let shown = (try? ScalarCodec.decode(stored, as: key.type.nonOptional))?.description ?? ValueColumn.describe(stored)
            let count = duplicate.checkedCount(1)
            let ids = duplicate.checkedText(2) ?? ""
            findings.add(.duplicateKey, keyPlace, label, "key \(shown) is held by \(Counted(count, "object")): \(ids)")
        }
        if key.isAutoIncrement, let last = counters?.lastKey,
            let highest = try Row.fetchOne(db, sql: "SELECT max(\(column)) FROM \(table)")?.checkedInteger(0), last < highest
        {
            findings.add(
                .counterBehind, keyPlace, label,
                CheckWording.keyCounterBehind(last, highest))
        }
        if key.isAutoIncrement, counters?.lastKey == Int64.max {
            findings.add(.counterExhausted, keyPlace, label, CheckWording.exhausted("autoIncrement counter (#types.lastKey)", "\(type.name) keys"))
        }
        return objects
    }
}
