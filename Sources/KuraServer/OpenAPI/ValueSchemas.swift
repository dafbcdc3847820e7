import Kura

/// The JSON Schemas of single values in documents (docs/documents.md): what export writes for each
/// scalar type, and what a write takes without asking for a date or data strategy.
enum ValueSchemas {
    /// A one-member object `{"NAME": value}`, the form of the typed wrappers.
    static func wrapper(_ name: String, _ value: String) -> String {
        OpenAPISchemas.object(required: [name], [(name, value)])
    }

    /// Where a document's object is written first (`"$id"`); `{"$ref": id}` names it again.
    static let referenceID = OpenAPISchemas.any
    static let reference = wrapper("$ref", referenceID)

    /// A map key: no `.`, not starting with `$`.
    static let mapKey = OpenAPISchemas.string(matching: "^(?!\\$)[^.]*$")

    // MARK: As export writes them

    static func output(_ type: PropertyType) -> String {
        switch type {
        case .bool: OpenAPISchemas.boolean
        case .int: OpenAPISchemas.int64
        case .float, .double:
            OpenAPISchemas.anyOf([OpenAPISchemas.number, wrapper("$numberDouble", OpenAPISchemas.oneOf(["Infinity", "-Infinity"]))])
        case .string: OpenAPISchemas.string
        // A date outside the years ISO 8601 writes comes as a count of milliseconds.
        case .date: wrapper("$date", OpenAPISchemas.anyOf([OpenAPISchemas.string, wrapper("$numberLong", OpenAPISchemas.string)]))
        case .data: wrapper("$binary", OpenAPISchemas.object(
            required: ["base64", "subType"], [("base64", OpenAPISchemas.string), ("subType", OpenAPISchemas.string)]))
        case .decimal: wrapper("$numberDecimal", OpenAPISchemas.string)
        case .objectId: wrapper("$oid", OpenAPISchemas.string)
        case .uuid: OpenAPISchemas.string
        default: OpenAPISchemas.any
        }
    }

    // MARK: As writes take them

    /// A UUID's 32 hex digits in their groups, either case.
    static let uuidPattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    /// An object id's 24 hex digits, as export writes them.
    static let objectIdPattern = "^[0-9a-f]{24}$"

    static func input(_ type: PropertyType) -> String {
        switch type {
        case .bool: OpenAPISchemas.boolean
        case .int: OpenAPISchemas.int64
        // Within the largest finite float.
        case .float: JSONText.object([("type", JSONText.string("number")), ("minimum", "-3.4028234663852886e38"), ("maximum", "3.4028234663852886e38")])
        case .double: OpenAPISchemas.number
        case .string: OpenAPISchemas.string
        // The years 1900 to 2099 to the millisecond, days to the 28th: a part of what the reader takes that is easy to state.
        case .date: wrapper("$date", OpenAPISchemas.string(
            matching: "^(19|20)[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{3})?Z$"))
        case .data: wrapper("$binary", OpenAPISchemas.object(
            required: ["base64", "subType"],
            [("base64", OpenAPISchemas.string(matching: "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")), ("subType", OpenAPISchemas.oneOf(["00"]))]))
        // Plain notation, short enough to hold exactly.
        case .decimal:
            OpenAPISchemas.anyOf([
                OpenAPISchemas.number, OpenAPISchemas.string(matching: "^-?[0-9]{1,15}(\\.[0-9]{1,15})?$"),
                wrapper("$numberDecimal", OpenAPISchemas.string(matching: "^-?[0-9]{1,15}(\\.[0-9]{1,15})?$")),
            ])
        case .objectId: wrapper("$oid", OpenAPISchemas.string(matching: objectIdPattern))
        case .uuid: OpenAPISchemas.anyOf([OpenAPISchemas.string(matching: uuidPattern), wrapper("$uuid", OpenAPISchemas.string(matching: uuidPattern))])
        case .mixed: OpenAPISchemas.ref(mixedName)
        default: OpenAPISchemas.any
        }
    }

    /// A value of a predicate's `$0`, `$1` …: a scalar, a typed wrapper, or an array for `IN`.
    static let argument = OpenAPISchemas.anyOf([
        OpenAPISchemas.null, OpenAPISchemas.boolean, OpenAPISchemas.int64, OpenAPISchemas.number, OpenAPISchemas.string,
        OpenAPISchemas.object([], additional: nil), OpenAPISchemas.array(OpenAPISchemas.any),
    ])

    /// The component of a mixed value as writes take it: a scalar, or a list or map of mixed values.
    static let mixedName = "Mixed"
    static let mixed = OpenAPISchemas.anyOf([
        OpenAPISchemas.null, OpenAPISchemas.boolean, OpenAPISchemas.int64, OpenAPISchemas.string,
        JSONText.object([("type", JSONText.string("number")), ("not", OpenAPISchemas.integer)]),
        OpenAPISchemas.array(OpenAPISchemas.ref(mixedName)),
        OpenAPISchemas.map(OpenAPISchemas.ref(mixedName), keys: mapKey),
    ])
}
