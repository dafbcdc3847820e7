/// The objects that link to this one (`@Backlinks var owners: [Person]`), computed from their links.
///
/// Declare the property's origin in `propertyOptions` with `.linkingObjects(Person.self, "dogs")`.
/// Reading a model from a realm (or from documents) fills it once every object is decoded, so a
/// backlink and the link it mirrors may form a cycle, as with `Link`; writing a model ignores it.
/// A plain `[Person]` works too, read inline: an object it leads back to while that object is still
/// being read comes back as a copy whose own backlinks are empty.
@propertyWrapper
public final class Backlinks<Source: KuraObject>: Codable {
    /// The objects linking here, in creation order.
    public var wrappedValue: [Source]

    /// Makes an empty backlink: a realm fills it when it reads the model.
    public init() {
        wrappedValue = []
    }

    /// Makes a backlink holding `wrappedValue`.
    public init(wrappedValue: [Source]) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes the objects inline (Kura's own decoders fill backlinks by identity instead); `null` is empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? [] : try container.decode([Source].self)
    }

    /// Encodes `null`: a backlink is computed from the links it mirrors, never stored.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}

extension KeyedDecodingContainer {
    /// A missing key decodes as an empty backlink.
    public func decode<Source>(_ type: Backlinks<Source>.Type, forKey key: Key) throws -> Backlinks<Source> {
        try decodeIfPresent(type, forKey: key) ?? Backlinks()
    }
}

/// What Kura's coders need of a `Backlinks` without knowing its source type.
protocol BacklinksBox: AnyObject {
    static var sourceType: any KuraObject.Type { get }
    static func makeEmpty() -> Self
    func fill(_ objects: [Any])
}

extension Backlinks: BacklinksBox {
    static var sourceType: any KuraObject.Type { Source.self }
    static func makeEmpty() -> Self { Self() }
    func fill(_ objects: [Any]) { wrappedValue = objects.compactMap { $0 as? Source } }
}
