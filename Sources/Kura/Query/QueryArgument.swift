import Foundation

/// A Swift value that can be bound to a `%@` placeholder of a predicate (or, as a string, to `%K`).
///
/// Bound values are never turned into predicate text: a string holding quotes or `%@` is compared
/// as it is.
public protocol QueryArgument {
    /// The value as the predicate compares it.
    var queryValue: Value { get }
}

extension Value: QueryArgument {
    public var queryValue: Value { self }
}

extension String: QueryArgument {
    public var queryValue: Value { .string(self) }
}

extension Substring: QueryArgument {
    public var queryValue: Value { .string(String(self)) }
}

extension Bool: QueryArgument {
    public var queryValue: Value { .bool(self) }
}

extension Int: QueryArgument {
    public var queryValue: Value { .int(Int64(self)) }
}

extension Int64: QueryArgument {
    public var queryValue: Value { .int(self) }
}

extension Int32: QueryArgument {
    public var queryValue: Value { .int(Int64(self)) }
}

extension Double: QueryArgument {
    public var queryValue: Value { .double(self) }
}

extension Float: QueryArgument {
    public var queryValue: Value { .float(self) }
}

extension Date: QueryArgument {
    public var queryValue: Value { .date(self) }
}

extension UUID: QueryArgument {
    public var queryValue: Value { .uuid(self) }
}

extension ObjectId: QueryArgument {
    public var queryValue: Value { .objectId(self) }
}

extension Decimal128: QueryArgument {
    public var queryValue: Value { .decimal(self) }
}

extension Optional: QueryArgument where Wrapped: QueryArgument {
    public var queryValue: Value { self?.queryValue ?? .null }
}

extension Array: QueryArgument where Element: QueryArgument {
    /// A list, for `IN %@` and `BETWEEN %@`.
    public var queryValue: Value { .list(map(\.queryValue)) }
}
