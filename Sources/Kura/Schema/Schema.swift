/// A realm's schema: its version and its object types.
public struct Schema: Sendable, Hashable {
    /// The schema version; a realm refuses a schema older than the one it stores.
    public var version: Int64
    /// The object types, in declaration order.
    public var types: [ObjectSchema]

    /// Makes a schema; call `validate()` before using one built by hand.
    public init(version: Int64 = 0, types: [ObjectSchema]) {
        self.version = version
        self.types = types
    }

    /// The type named `name`.
    public subscript(type name: String) -> ObjectSchema? {
        types.first { $0.name == name }
    }

    /// Checks the rules of the schema format; throws the first violation found.
    public func validate() throws(KuraError) {
        try SchemaValidator(schema: self, locations: SchemaLocations()).validate()
    }
}

/// Where each part of a schema was written, so that validation errors can point at it.
public struct SchemaLocations: Sendable {
    var types: [String: FilePosition] = [:]
    var properties: [String: FilePosition] = [:]
    var primaryKeys: [String: FilePosition] = [:]
    /// Where the object type a property names is written inside its type text (`Dog` in
    /// `list<Dog>`, the type of a `linkingObjects`), by `Type.property`.
    var typeNames: [String: FilePosition] = [:]

    /// An empty set of locations (for schemas that do not come from a file).
    public init() {}

    func type(_ name: String) -> FilePosition? { types[name] }
    func property(_ type: String, _ name: String) -> FilePosition? { properties["\(type).\(name)"] }
    /// Where property `name` of `type` names its object type, else where the property is.
    func typeName(_ type: String, _ name: String) -> FilePosition? { typeNames["\(type).\(name)"] ?? property(type, name) }
}
