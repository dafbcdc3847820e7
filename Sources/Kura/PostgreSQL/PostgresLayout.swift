import Foundation

/// How a PostgreSQL realm stores what `TableLayout` names: the same tables and columns as a SQLite
/// realm, with PostgreSQL's column types and one rule for text.
///
/// PostgreSQL's `text` cannot hold U+0000, which a Kura string may contain, so every text a user
/// gives (strings, decimals, map keys, the texts inside mixed values) is stored as `bytea` holding
/// its UTF-8 bytes: exact, and ordered byte by byte as SQLite's BINARY collation orders it, so both
/// engines sort strings alike. A mixed value has one `bytea` column whose class its tag tells:
/// integers and reals as their decimal text (which SQL can cast back), texts as UTF-8, data as it is.
/// Kura's own bookkeeping (`#meta`, `#types`) keeps plain `text`.
enum PostgresLayout {
    /// The column type that holds values of `type` (a non-collection type).
    static func sqlType(_ type: PropertyType) -> String {
        switch type.nonOptional {
        case .bool, .int, .date, .object: "bigint"
        case .float, .double: "double precision"
        default: "bytea"
        }
    }

    /// The column that orders a collection's rows: list position, map key, or, for sets, the
    /// identity column that stands in for SQLite's rowid.
    static func orderColumn(for type: PropertyType) -> String {
        switch type {
        case .list: TableLayout.positionColumn
        case .map: TableLayout.keyColumn
        default: rowColumn
        }
    }

    /// The identity column every collection table has, numbering rows in insertion order.
    static let rowColumn = TableLayout.quote("#row")

    /// A cell as a column of `sqlType` stores it: texts become their UTF-8 bytes.
    static func stored(_ cell: StoredCell) -> StoredCell {
        guard case .text(let text) = cell else { return cell }
        return .blob(Data(text.utf8))
    }

    /// A cell read from a column of the scalar `type` back in the form the codec decodes: bytes
    /// of a string or decimal column become text again.
    static func read(_ cell: StoredCell, as type: PropertyType) throws(KuraError) -> StoredCell {
        guard case .blob(let bytes) = cell else { return cell }
        switch type.nonOptional {
        case .string, .decimal: return .text(try text(bytes))
        default: return cell
        }
    }

    /// A map key as a `#key` column holds it, read back; a key that is null reads as the empty key.
    static func mapKey(_ cell: StoredCell) throws(KuraError) -> String {
        switch cell {
        case .blob(let bytes): try text(bytes)
        case .text(let text): text
        default: ""
        }
    }

    /// A mixed value's cell as its `bytea` column stores it: numbers as their decimal text.
    static func storedMixed(_ cell: StoredCell) -> StoredCell {
        switch cell {
        case .null, .blob: cell
        case .integer(let number): .blob(Data(String(number).utf8))
        case .real(let number): .blob(Data(PostgresCopyText.text(of: number).utf8))
        case .text(let text): .blob(Data(text.utf8))
        }
    }

    /// A mixed value's cell read back from its `bytea` column, by its `tag`.
    static func readMixed(_ cell: StoredCell, tag: Int64) throws(KuraError) -> StoredCell {
        guard case .blob(let bytes) = cell else { return cell }
        switch storageClass(ofTag: tag) {
        case .integer:
            guard let number = Int64(try text(bytes)) else { throw malformed(tag) }
            return .integer(number)
        case .real:
            guard let number = real(try text(bytes)) else { throw malformed(tag) }
            return .real(number)
        case .text: return .text(try text(bytes))
        case .blob: return cell
        }
    }

    /// The kind of cell a mixed value with `tag` holds.
    enum StorageClass { case integer, real, text, blob }

    static func storageClass(ofTag tag: Int64) -> StorageClass {
        switch tag {
        case MixedTag.float, MixedTag.double: .real
        case MixedTag.string, MixedTag.decimal: .text
        case MixedTag.data, MixedTag.objectId, MixedTag.uuid: .blob
        default: .integer
        }
    }

    private static func real(_ text: String) -> Double? {
        switch text {
        case "NaN": .nan
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        default: Double(text)
        }
    }

    private static func text(_ bytes: Data) throws(KuraError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw KuraError.store(.corruptRealm, "the realm holds a text that is not UTF-8")
        }
        return text
    }

    private static func malformed(_ tag: Int64) -> KuraError {
        KuraError.store(.corruptRealm, "the realm holds a mixed value whose bytes do not fit its tag \(tag)")
    }
}
