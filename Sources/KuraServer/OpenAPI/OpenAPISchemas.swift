/// JSON Schema (2020-12, as OpenAPI 3.1 takes it) fragments as JSON text, for the OpenAPI document.
enum OpenAPISchemas {
    static let string = #"{"type":"string"}"#
    static let integer = #"{"type":"integer"}"#
    static let boolean = #"{"type":"boolean"}"#
    static let number = #"{"type":"number"}"#
    static let null = #"{"type":"null"}"#
    /// Any JSON value.
    static let any = "{}"

    /// The smallest and largest integers a 64-bit `int` holds.
    static let int64 = #"{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}"#

    /// An integer from `lower` to `upper` (no upper bound when `upper` is nil).
    static func integer(from lower: Int, to upper: Int? = nil) -> String {
        var members = [("type", JSONText.string("integer")), ("minimum", String(lower))]
        if let upper { members.append(("maximum", String(upper))) }
        return JSONText.object(members)
    }

    /// A string of at least one character: an empty query value is refused, not taken as absent.
    static let text = #"{"type":"string","minLength":1}"#

    /// `If-Match` and `If-None-Match`: `*`, or a list of entity tags (weak ones `W/"…"`).
    /// An empty list matches nothing.
    static let entityTags = string(matching: #"^(\*|(W/)?"[!#-~]*"([ \t]*,[ \t]*(W/)?"[!#-~]*")*)?$"#)

    /// A string that is one of `values`.
    static func oneOf(_ values: [String]) -> String {
        JSONText.object([("type", JSONText.string("string")), ("enum", JSONText.array(values.map(JSONText.string)))])
    }

    /// A string matching `pattern` (an ECMA-262 regular expression).
    static func string(matching pattern: String) -> String {
        JSONText.object([("type", JSONText.string("string")), ("pattern", JSONText.string(pattern))])
    }

    static func array(_ items: String) -> String {
        JSONText.object([("type", JSONText.string("array")), ("items", items)])
    }

    /// An object with `properties`, those of `required` always present; other members allowed
    /// only when `additional` is given (their schema).
    static func object(required: [String] = [], _ properties: [(String, String)], additional: String? = "false") -> String {
        var members = [("type", JSONText.string("object"))]
        if !required.isEmpty { members.append(("required", JSONText.array(required.map(JSONText.string)))) }
        members.append(("properties", JSONText.object(properties)))
        if let additional { members.append(("additionalProperties", additional)) }
        return JSONText.object(members)
    }

    /// An object whose members all have the schema `values` (a map).
    static func map(_ values: String, keys: String? = nil) -> String {
        var members = [("type", JSONText.string("object")), ("additionalProperties", values)]
        if let keys { members.append(("propertyNames", keys)) }
        return JSONText.object(members)
    }

    /// A reference to `#/components/schemas/NAME`, `name` one that `componentName` made.
    static func ref(_ name: String) -> String {
        JSONText.object([("$ref", JSONText.string("#/components/schemas/" + name))])
    }

    /// Any of `schemas`.
    static func anyOf(_ schemas: [String]) -> String {
        schemas.count == 1 ? schemas[0] : JSONText.object([("anyOf", JSONText.array(schemas))])
    }

    /// `schema`, or null.
    static func nullable(_ schema: String) -> String { anyOf([schema, null]) }

    /// A component name for `parts` (such as a realm and a type): OpenAPI allows only ASCII
    /// letters, digits, `.`, `-` and `_` there, so every other byte is written `-XX` in hex and the
    /// parts are joined by `.`, which keeps names of any script apart.
    static func componentName(_ parts: String...) -> String {
        parts.map { part in
            part.utf8.map { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "_"):
                    String(UnicodeScalar(byte))
                default:
                    "-" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
            }.joined()
        }.joined(separator: ".")
    }
}

extension String {
    /// The text with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
