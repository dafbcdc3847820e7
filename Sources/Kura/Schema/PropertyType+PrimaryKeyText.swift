import Foundation

extension PropertyType {
    /// The primary key of this type that `text` names in a URL or a page cursor (as
    /// `Value.primaryKeyText` writes it), or `nil` when it names none.
    ///
    /// One key has one text: an integer key reads only the digits `String(number)` writes, so
    /// `01` and `+1` name no key. An optional type reads as the type it wraps.
    public func primaryKey(fromText text: String) -> Value? {
        switch nonOptional {
        case .int: Self.canonicalInteger(text).map(Value.int)
        case .string: .string(text)
        case .objectId: ObjectId(hex: text).map(Value.objectId)
        case .uuid: UUID(uuidString: text).map(Value.uuid)
        default: nil
        }
    }

    /// `text` as an integer when it is written as `String(number)` writes it, else `nil`.
    public static func canonicalInteger(_ text: String) -> Int64? {
        guard let number = Int64(text), String(number) == text else { return nil }
        return number
    }
}
