extension Value {
    /// The text that names this primary key in a URL or a page cursor: an integer's digits, a
    /// string itself, an ObjectId's 24 hexadecimal digits, a UUID's 36 characters; `nil` for a
    /// value no primary key holds.
    ///
    /// `PropertyType.primaryKey(fromText:)` reads it back.
    public var primaryKeyText: String? {
        switch self {
        case .int(let number): String(number)
        case .string(let text): text
        case .objectId(let id): id.hexString
        case .uuid(let id): id.uuidString
        default: nil
        }
    }
}
