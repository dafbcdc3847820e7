/// A Swift model type that Kura can store: a Codable type plus a few static facts.
///
/// Kura derives the type's schema from its Codable properties: `String`, `Int`, `Double`, `Date`,
/// `Data`, `UUID`, `Decimal128`, `ObjectId`, `Value` (mixed), optionals, arrays (lists), sets,
/// `[String: …]` (maps), other `KuraObject` types (links or embedded objects) and `Link<…>`
/// (links that may form cycles). A property given `.linkingObjects` in `propertyOptions` is a
/// computed backlink, never stored: declare it `@Backlinks var owners: [Person]` (or `[Person]`),
/// or leave it out of the Swift type and read it with `DynamicObject.linkingObjects(_:)`.
///
/// The type itself (not its values) may be used on any thread (`SendableMetatype`), so that
/// `Results` of it can be read from any task; values are `Sendable` only if the type says so.
public protocol KuraObject: Codable, SendableMetatype {
    /// The type's name in the schema; by default the Swift type's name.
    static var typeName: String { get }
    /// The name of the primary key property, if any.
    static var primaryKey: String? { get }
    /// Whether objects are owned by one parent and deleted with it.
    static var isEmbedded: Bool { get }
    /// Whether objects are write-only.
    static var isAsymmetric: Bool { get }
    /// Facts a Swift declaration cannot carry: defaults, indexes, autoIncrement, linkingObjects.
    static var propertyOptions: [String: PropertyOptions] { get }
}

extension KuraObject {
    public static var typeName: String { String(describing: Self.self) }
    public static var primaryKey: String? { nil }
    public static var isEmbedded: Bool { false }
    public static var isAsymmetric: Bool { false }
    public static var propertyOptions: [String: PropertyOptions] { [:] }
}

/// Schema facts about one property of a `KuraObject` that its Swift type does not say.
public struct PropertyOptions: Sendable {
    /// The value a new object takes when the property is `nil` in the model.
    public var defaultValue: DefaultValue?
    /// Whether the property is indexed.
    public var isIndexed: Bool
    /// Whether the (int primary key) property is assigned from a counter when `nil`.
    public var isAutoIncrement: Bool
    /// The property's previous name, for migrations.
    public var renamedFrom: String?
    /// For a computed backlink property: the linking type and property.
    public var linkingObjects: (type: String, property: String)?
    /// The linking model type, so that a schema derived from this model includes it.
    var linkingModel: LinkingModel?

    /// Makes options.
    public init(
        defaultValue: DefaultValue? = nil, isIndexed: Bool = false, isAutoIncrement: Bool = false,
        renamedFrom: String? = nil
    ) {
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        self.isAutoIncrement = isAutoIncrement
        self.renamedFrom = renamedFrom
    }

    /// An int primary key assigned from a counter.
    public static let autoIncrement = PropertyOptions(isAutoIncrement: true)
    /// An indexed property.
    public static let indexed = PropertyOptions(isIndexed: true)

    /// A property with a default value.
    public static func `default`(_ value: DefaultValue) -> PropertyOptions { PropertyOptions(defaultValue: value) }

    /// A computed property listing the objects of `type` whose `property` links here.
    public static func linkingObjects<Source: KuraObject>(_ type: Source.Type, _ property: String) -> PropertyOptions {
        var options = PropertyOptions()
        options.linkingObjects = (Source.typeName, property)
        options.linkingModel = LinkingModel(type: Source.self)
        return options
    }
}

/// A model type held by `PropertyOptions`: model metatypes are not `Sendable`, and the type is only
/// read to derive a schema.
struct LinkingModel: @unchecked Sendable {
    let type: any KuraObject.Type
}
