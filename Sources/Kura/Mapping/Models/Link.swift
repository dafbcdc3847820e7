/// A to-one link that may form a cycle (`@Link var bestFriend: Person?`).
///
/// Kura writes and reads `Link` properties breadth-first by object identity, so a model graph
/// with cycles or shared objects round-trips through a realm with the same shape. `Link` is a
/// reference: use it in class models.
@propertyWrapper
public final class Link<Target: KuraObject>: Codable {
    /// The linked object, or `nil`.
    public var wrappedValue: Target?

    /// Makes a link to `wrappedValue`.
    public init(wrappedValue: Target?) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes the linked object inline (Kura's own decoder fills links by identity instead).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Target.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key decodes as an empty link, as an optional property would.
    public func decode<Target>(_ type: Link<Target>.Type, forKey key: Key) throws -> Link<Target> {
        try decodeIfPresent(type, forKey: key) ?? Link(wrappedValue: nil)
    }
}

/// What Kura's coders need of a `Link` without knowing its target type.
protocol LinkBox: AnyObject {
    static var targetType: any KuraObject.Type { get }
    static func makeEmpty() -> Self
    var target: (any KuraObject)? { get }
    func fill(_ object: Any)
}

extension Link: LinkBox {
    static var targetType: any KuraObject.Type { Target.self }
    static func makeEmpty() -> Self { Self(wrappedValue: nil) }
    var target: (any KuraObject)? { wrappedValue }
    func fill(_ object: Any) { wrappedValue = object as? Target }
}
