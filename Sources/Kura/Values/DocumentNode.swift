import Foundation

/// A parsed JSON value together with where it starts in the input.
public struct DocumentNode: Sendable, Hashable {
    /// The value.
    public var value: DocumentValue
    /// The position of the value's first byte.
    public var position: TextPosition

    /// Makes a node.
    public init(value: DocumentValue, position: TextPosition) {
        self.value = value
        self.position = position
    }
}

/// A JSON or YAML value; containers hold nodes so every nested value keeps its position.
/// The cases after `object` only come from YAML documents.
public enum DocumentValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, with its exact text kept.
    case number(NumberLiteral)
    /// A string, unescaped.
    case string(String)
    /// An array's elements, in order.
    case array([DocumentNode])
    /// An object's members in input order; duplicate keys are kept.
    case object([DocumentMember])
    /// A YAML timestamp, as milliseconds since the Unix epoch (UTC).
    case timestamp(Int64)
    /// A YAML `!!binary` scalar, base64-decoded.
    case binary(Data)
    /// The first occurrence of a YAML node carrying the anchor `&name`.
    indirect case anchored(String, DocumentNode)
    /// A later YAML `*name` reference to the most recent node anchored as `name` in the same document.
    case alias(String)

    /// A short name of the value's kind, as error messages print it.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        case .timestamp: "timestamp"
        case .binary: "binary"
        case .anchored(_, let node): node.value.kindName
        case .alias: "alias"
        }
    }
}

/// One `"key": value` pair of a JSON object.
public struct DocumentMember: Sendable, Hashable {
    /// The key, unescaped.
    public var key: String
    /// The position of the key's opening quote.
    public var keyPosition: TextPosition
    /// The value.
    public var value: DocumentNode

    /// Makes a member.
    public init(key: String, keyPosition: TextPosition, value: DocumentNode) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}
