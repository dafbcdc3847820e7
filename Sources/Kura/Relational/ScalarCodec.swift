import Foundation

/// Converts scalar values to the stored forms of their columns and back.
enum ScalarCodec {
    /// The stored cell for `value` stored as `type` (a non-optional scalar type); `nil` if the value
    /// does not fit the type. Integers are accepted for float, double and decimal, as Realm does.
    static func cell(_ value: Value, as type: PropertyType) -> StoredCell? {
        switch (type, value) {
        case (_, .null): return .null
        case (.bool, .bool(let flag)): return .integer(flag ? 1 : 0)
        case (.int, .int(let number)): return .integer(number)
        case (.float, .float(let number)): return .real(Double(number))
        case (.float, .double(let number)):
            guard let narrowed = Float(exactly: number) ?? finiteFloat(number) else { return nil }
            return .real(Double(narrowed))
        case (.float, .int(let number)): return .real(Double(Float(number)))
        case (.double, .double(let number)):
            return number.isNaN ? nil : .real(number)
        case (.double, .float(let number)): return number.isNaN ? nil : .real(Double(number))
        case (.double, .int(let number)): return .real(Double(number))
        case (.string, .string(let text)): return .text(text)
        case (.date, .date(let date)): return DateFormatting.storedMilliseconds(date).map(StoredCell.integer)
        case (.data, .data(let bytes)): return .blob(bytes)
        case (.decimal, .decimal(let number)): return .text(number.description)
        case (.decimal, .int(let number)): return .text(String(number))
        case (.objectId, .objectId(let id)): return .blob(Data(id.bytes))
        case (.uuid, .uuid(let id)): return .blob(id.bytes)
        default: return nil
        }
    }

    /// The value a column holds for `type`; a value of the wrong storage class is reported as corrupt.
    static func decode(_ stored: StoredCell, as type: PropertyType) throws(KuraError) -> Value {
        switch (type, stored) {
        case (_, .null): return .null
        case (.bool, .integer(let number)): return .bool(number != 0)
        case (.int, .integer(let number)): return .int(number)
        case (.float, .real(let number)): return .float(Float(number))
        case (.float, .integer(let number)): return .float(Float(number))
        case (.double, .real(let number)): return .double(number)
        case (.double, .integer(let number)): return .double(Double(number))
        case (.string, .text(let text)): return .string(text)
        case (.date, .integer(let millis)): return .date(DateFormatting.date(milliseconds: millis))
        case (.data, .blob(let bytes)): return .data(bytes)
        case (.decimal, .text(let text)):
            if let number = Decimal128(text) { return .decimal(number) }
        case (.objectId, .blob(let bytes)):
            if let id = ObjectId(bytes: Array(bytes)) { return .objectId(id) }
        case (.uuid, .blob(let bytes)):
            if let id = uuid(from: bytes) { return .uuid(id) }
        default: break
        }
        throw KuraError.store(.corruptRealm, "a stored value \(stored.sqlDescription) is not a valid \(type)")
    }

    static func uuid(from bytes: Data) -> UUID? {
        guard bytes.count == 16 else { return nil }
        let b = Array(bytes)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    private static func finiteFloat(_ number: Double) -> Float? {
        guard number.isFinite, abs(number) <= Double(Float.greatestFiniteMagnitude) else { return nil }
        return Float(number)
    }
}

/// The tag stored beside a mixed value, telling which kind of value the untyped column holds.
enum MixedTag {
    static let null: Int64 = 0
    static let bool: Int64 = 1
    static let int: Int64 = 2
    static let float: Int64 = 3
    static let double: Int64 = 4
    static let string: Int64 = 5
    static let date: Int64 = 6
    static let data: Int64 = 7
    static let decimal: Int64 = 8
    static let objectId: Int64 = 9
    static let uuid: Int64 = 10
    static let list: Int64 = 11
    static let map: Int64 = 12
    /// A link to an object: this base plus the target type's stable id from the types table.
    static let linkBase: Int64 = 64
    /// How deep lists and maps in mixed values may nest; this also bounds the recursion that reads them.
    static let maxDepth = 100

    /// The condition that a mixed value in `tagColumn` is a link, written the same in the partial
    /// indexes on links and in the statements that search them: SQLite uses a partial index only
    /// for a statement whose own condition contains the index's.
    static func linkTerm(_ tagColumn: String) -> String { "\(tagColumn) >= \(linkBase)" }

    static let scalarTypes: [Int64: PropertyType] = [
        bool: .bool, int: .int, float: .float, double: .double, string: .string, date: .date, data: .data,
        decimal: .decimal, objectId: .objectId, uuid: .uuid,
    ]

    /// The tag of the values of a scalar type; `nil` for other types.
    static func tag(for type: PropertyType) -> Int64? {
        scalarTypes.first { $0.value == type }?.key
    }

    /// The tag and scalar type for a scalar value; `nil` for collections and links.
    static func scalar(for value: Value) -> (tag: Int64, type: PropertyType)? {
        switch value {
        case .null: (null, .int)
        case .bool: (bool, .bool)
        case .int: (int, .int)
        case .float: (float, .float)
        case .double: (double, .double)
        case .string: (string, .string)
        case .date: (date, .date)
        case .data: (data, .data)
        case .decimal: (decimal, .decimal)
        case .objectId: (objectId, .objectId)
        case .uuid: (uuid, .uuid)
        case .list, .map, .object: nil
        }
    }
}
