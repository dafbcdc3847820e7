/// A link inside a mixed value on its way between a document and the store.
///
/// In a document, a mixed position links to an object with a member `"$type"` (map keys may not
/// start with `$`, so no plain map looks like this): `{"$type": "Person", "$key": 3}` by primary
/// key, `{"$type": "Dog", "$ref": id}` to a document carrying `"$id"`, or `{"$type": "Dog", …}`
/// with the object's properties nested. The mapper turns each into the value
/// `["$type": T, "$link": link]`, where `link` is what a link property of type `T` would hold;
/// the writer writes that back in the same form and the store resolves it to a stored link.
struct MixedLink {
    static let typeKey = "$type"
    static let linkKey = "$link"
    /// The document key of a link by primary key.
    static let primaryKeyKey = "$key"

    let typeName: String
    let link: Value

    init(typeName: String, link: Value) {
        self.typeName = typeName
        self.link = link
    }

    /// The link a mixed map value stands for, or `nil` for an ordinary map.
    init?(_ entries: [String: Value]) {
        guard entries.count == 2, let link = entries[Self.linkKey], case .string(let typeName)? = entries[Self.typeKey]
        else { return nil }
        self.init(typeName: typeName, link: link)
    }

    /// The mixed value that carries this link.
    var value: Value { .map([Self.typeKey: .string(typeName), Self.linkKey: link]) }
}
