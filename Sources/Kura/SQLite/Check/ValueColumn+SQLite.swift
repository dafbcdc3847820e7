import GRDB

/// How SQLite's checks read a value column: past its indexes, and rows as GRDB gives them.
extension ValueColumn {
    /// The column's table as `"s"`, read row by row: a check reads the tables themselves, since the
    /// indexes of a damaged file may disagree with them (the integrity check reports that).
    var scan: String { "\(source) NOT INDEXED" }

    /// `label: object 3` with ` at [2]` or ` at key "k"`, for a row whose first columns are `whereColumns`.
    func subject(_ row: Row) -> (place: CheckFinding.Place, text: String) {
        subject(owner: StoredCell(row[0] as DatabaseValue), position: StoredCell(row[1] as DatabaseValue), key: row.checkedText(2))
    }

    /// A value as findings show it: `text "abc"`, `integer 7`, `a blob of 3 bytes`, `null`.
    static func describe(_ value: DatabaseValue) -> String {
        describe(StoredCell(value))
    }
}
