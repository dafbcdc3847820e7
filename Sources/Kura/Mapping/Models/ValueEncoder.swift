import Foundation

/// Encodes Codable values into `Value` trees, keeping dates, data, uuids, object ids and decimals
/// as their own kinds.
public struct ValueEncoder {
    /// Called for each nested `KuraObject` that is stored on its own (not embedded) and for each
    /// `Link`; returns the value to put in its place. `nil` encodes such objects inline.
    var objectHandler: ((any KuraObject) throws -> Value)?

    /// Makes an encoder that encodes nested objects inline.
    public init() {}

    init(objectHandler: @escaping (any KuraObject) throws -> Value) {
        self.objectHandler = objectHandler
    }

    /// The value tree of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> Value {
        try EncodingContext(objectHandler: objectHandler).box(value, path: []).value
    }

    /// The value tree of a model's own properties: the model itself is never handed to the object handler.
    /// Backlinks are left out: computed from the links they mirror, they are never written, and the
    /// objects in them are not handed to the object handler.
    func encodeFields(of model: any KuraObject) throws -> Value {
        let node = EncodingNode()
        let context = EncodingContext(objectHandler: objectHandler)
        let backlinks = EncodingContext.backlinks(of: type(of: model))
        try model.encode(to: NodeEncoder(node: node, codingPath: [], context: context, skippedKeys: backlinks))
        return node.value
    }
}

/// A value under construction: containers fill it in as the value encodes itself.
final class EncodingNode {
    enum Storage {
        case empty
        case value(Value)
        case keyed([String: EncodingNode])
        case unkeyed([EncodingNode])
    }

    var storage: Storage

    init(_ storage: Storage = .empty) { self.storage = storage }

    var value: Value {
        switch storage {
        case .empty: .null
        case .value(let value): value
        case .keyed(let children): .map(children.mapValues(\.value))
        case .unkeyed(let children): .list(children.map(\.value))
        }
    }
}

struct EncodingContext {
    let objectHandler: ((any KuraObject) throws -> Value)?

    /// The node for one value: special kinds directly, stored objects through the handler, others by encoding them.
    func box<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> EncodingNode {
        if let special = Self.special(value) { return EncodingNode(.value(special)) }
        if let objectHandler {
            if let link = value as? any LinkBox {
                guard let target = link.target else { return EncodingNode(.value(.null)) }
                return EncodingNode(.value(try objectHandler(target)))
            }
            if let model = value as? any KuraObject, !type(of: model).isEmbedded {
                return EncodingNode(.value(try objectHandler(model)))
            }
        }
        let node = EncodingNode()
        let backlinks = (value as? any KuraObject).map { Self.backlinks(of: type(of: $0)) } ?? []
        try value.encode(to: NodeEncoder(node: node, codingPath: path, context: self, skippedKeys: backlinks))
        return node
    }

    /// The names of a model's backlinks (properties with `.linkingObjects`), which are never encoded.
    static func backlinks(of model: any KuraObject.Type) -> Set<String> {
        Set(model.propertyOptions.compactMap { $0.value.linkingObjects == nil ? nil : $0.key })
    }

    static func special(_ value: Any) -> Value? {
        switch value {
        case let date as Date: .date(date)
        case let data as Data: .data(data)
        case let id as UUID: .uuid(id)
        case let number as Decimal128: .decimal(number)
        case let id as ObjectId: .objectId(id)
        case let mixed as Value: mixed
        default: nil
        }
    }

    static func integer<T: BinaryInteger>(_ value: T, path: [any CodingKey]) throws -> Value {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: path, debugDescription: "\(value) does not fit in an int"))
        }
        return .int(exact)
    }
}

struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let context: EncodingContext
    /// Keys of a model's own properties that are not encoded (its backlinks).
    var skippedKeys: Set<String> = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = node.storage {} else { node.storage = .keyed([:]) }
        return KeyedEncodingContainer(
            KeyedNodeContainer<Key>(node: node, codingPath: codingPath, context: context, skippedKeys: skippedKeys))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = node.storage {} else { node.storage = .unkeyed([]) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath, context: context)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath, context: context)
    }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let context: EncodingContext
    var skippedKeys: Set<String> = []

    private func set(_ child: EncodingNode, _ key: Key) {
        guard !skippedKeys.contains(key.stringValue), case .keyed(var children) = node.storage else { return }
        children[key.stringValue] = child
        node.storage = .keyed(children)
    }

    mutating func encodeNil(forKey key: Key) throws { set(EncodingNode(.value(.null)), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(EncodingNode(.value(.bool(value))), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(EncodingNode(.value(.string(value))), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(EncodingNode(.value(.double(value))), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(EncodingNode(.value(.float(value))), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(EncodingNode(.value(.int(Int64(value)))), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(EncodingNode(.value(.int(value))), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        guard !skippedKeys.contains(key.stringValue) else { return }
        let path = codingPath + [key]
        if let integer = value as? any BinaryInteger {
            set(EncodingNode(.value(try EncodingContext.integer(integer, path: path))), key)
            return
        }
        set(try context.box(value, path: path), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = EncodingNode(.keyed([:]))
        set(child, key)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key], context: context))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode(.unkeyed([]))
        set(child, key)
        return UnkeyedNodeContainer(node: child, codingPath: codingPath + [key], context: context)
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node, codingPath: codingPath, context: context) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodingNode()
        set(child, key)
        return NodeEncoder(node: child, codingPath: codingPath + [key], context: context)
    }
}

struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let context: EncodingContext

    var count: Int {
        if case .unkeyed(let children) = node.storage { return children.count }
        return 0
    }

    private func append(_ child: EncodingNode) {
        guard case .unkeyed(var children) = node.storage else { return }
        children.append(child)
        node.storage = .unkeyed(children)
    }

    mutating func encodeNil() throws { append(EncodingNode(.value(.null))) }
    mutating func encode(_ value: Bool) throws { append(EncodingNode(.value(.bool(value)))) }
    mutating func encode(_ value: String) throws { append(EncodingNode(.value(.string(value)))) }
    mutating func encode(_ value: Double) throws { append(EncodingNode(.value(.double(value)))) }
    mutating func encode(_ value: Float) throws { append(EncodingNode(.value(.float(value)))) }
    mutating func encode(_ value: Int) throws { append(EncodingNode(.value(.int(Int64(value))))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let integer = value as? any BinaryInteger {
            append(EncodingNode(.value(try EncodingContext.integer(integer, path: codingPath))))
            return
        }
        append(try context.box(value, path: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode(.keyed([:]))
        append(child)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath, context: context))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodingNode(.unkeyed([]))
        append(child)
        return UnkeyedNodeContainer(node: child, codingPath: codingPath, context: context)
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode()
        append(child)
        return NodeEncoder(node: child, codingPath: codingPath, context: context)
    }
}

struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let context: EncodingContext

    mutating func encodeNil() throws { node.storage = .value(.null) }
    mutating func encode(_ value: Bool) throws { node.storage = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { node.storage = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { node.storage = .value(.double(value)) }
    mutating func encode(_ value: Float) throws { node.storage = .value(.float(value)) }
    mutating func encode(_ value: Int) throws { node.storage = .value(.int(Int64(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let integer = value as? any BinaryInteger {
            node.storage = .value(try EncodingContext.integer(integer, path: codingPath))
            return
        }
        node.storage = try context.box(value, path: codingPath).storage
    }
}
