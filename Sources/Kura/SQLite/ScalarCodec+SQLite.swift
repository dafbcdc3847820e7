import GRDB

extension ScalarCodec {
    /// The value an SQLite column holds for `type`, as `decode(_:as:)` reads its stored cell.
    static func decode(_ stored: DatabaseValue, as type: PropertyType) throws(KuraError) -> Value {
        try decode(StoredCell(stored), as: type)
    }
}
