import GRDBSQLite

/// How one stored column (or collection element) becomes a `Value`, decided once per column: the
/// usual kinds are read straight from SQLite's row, anything else through `ObjectReader.decode`.
struct StoredColumn {
    private enum Kind {
        case bool, int, double, string, date
        case link(String)
        /// Decoded through the general path (mixed values, blobs, decimals, floats).
        case general
    }

    /// The property type the column holds (a collection's element type for element columns).
    let type: PropertyType
    private let kind: Kind

    init(_ type: PropertyType) {
        self.type = type
        switch type.nonOptional {
        case .bool: kind = .bool
        case .int: kind = .int
        case .double: kind = .double
        case .string: kind = .string
        case .date: kind = .date
        case .object(let target): kind = .link(target)
        default: kind = .general
        }
    }

    /// The value in column `index` of `row`; a mixed value's tag is in the column after it.
    func decode(_ row: DirectRow, _ index: Int, reader: ObjectReader) throws -> Value {
        let storage = row.storageClass(index)
        switch (kind, storage) {
        case (.general, _): break
        case (_, SQLITE_NULL): return .null
        case (.bool, SQLITE_INTEGER): return .bool(row.integer(index) != 0)
        case (.int, SQLITE_INTEGER): return .int(row.integer(index))
        case (.double, SQLITE_FLOAT): return .double(row.real(index))
        case (.string, SQLITE_TEXT): return .string(row.text(index))
        case (.date, SQLITE_INTEGER): return .date(DateFormatting.date(milliseconds: row.integer(index)))
        case (.link(let target), SQLITE_INTEGER): return .object(ObjectRef(type: target, id: row.integer(index)))
        default: break
        }
        return try reader.decode(row[index], tag: row.int64(index + 1), as: type)
    }
}
