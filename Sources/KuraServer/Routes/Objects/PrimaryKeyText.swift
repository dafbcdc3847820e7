import Kura

/// A primary key as it appears in a URL (a path segment or a page cursor), read by the key's type
/// as the library reads it (`PropertyType.primaryKey(fromText:)`), with the 404s a route answers.
struct PrimaryKeyText {
    /// The key as a value, for `Realm.object(ofType:forPrimaryKey:)`.
    let value: Value

    /// Reads `text` as a key of `type`; throws 404 `unknown-key` when it cannot be one.
    init(_ text: String, of type: ObjectSchema) throws(Problem) {
        guard let property = type.primaryKeyProperty else {
            throw Problem.notFound("unknown-key", "type '\(type.name)' has no primary key")
        }
        guard let value = property.type.primaryKey(fromText: text) else {
            throw Problem.notFound("unknown-key", "'\(MessageText.shown(text))' is not a key of type '\(type.name)' (its keys are \(property.type.nonOptional))")
        }
        self.value = value
    }
}
