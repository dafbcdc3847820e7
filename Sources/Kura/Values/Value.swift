import Foundation

/// A property value as Kura stores and returns it.
///
/// The schema gives a value its meaning: `.map` is a nested object when it is
/// written to a link property and a dictionary when it is written to a `map`
/// or `mixed` property; `.object` refers to an object already in a realm.
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)
    case string(String)
    /// A point in time; Kura keeps dates to the millisecond.
    case date(Date)
    case data(Data)
    case decimal(Decimal128)
    case objectId(ObjectId)
    case uuid(UUID)
    case list([Value])
    case map([String: Value])
    /// A link to a stored object.
    case object(ObjectRef)

    /// A short name of the value's kind, as error messages print it.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .decimal: "decimal"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .list: "list"
        case .map: "map"
        case .object(let ref): "object \(ref.type)"
        }
    }

    /// Whether the value is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: Value...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) {
        var map: [String: Value] = [:]
        for (key, value) in elements { map[key] = value }
        self = .map(map)
    }
}

extension Value: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .int(let value): String(value)
        case .float(let value): "\(value)f"
        case .double(let value): String(value)
        case .string(let value): "\"\(value)\""
        case .date(let value): DateFormatting.iso8601(value)
        case .data(let value): "<\(Counted(value.count, "byte"))>"
        case .decimal(let value): value.description
        case .objectId(let value): "ObjectId(\(value))"
        case .uuid(let value): value.uuidString.lowercased()
        case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .map(let entries):
            "{" + entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .object(let ref): ref.description
        }
    }
}
