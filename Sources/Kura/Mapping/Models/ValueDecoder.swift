import Foundation

/// Decodes Codable values from `Value` trees with Kura's strict type rules: no conversions between
/// strings, numbers and booleans; integers only where they fit.
public struct ValueDecoder: Decoder {
    /// The value being decoded.
    public let value: Value
    public let codingPath: [any CodingKey]
    public var userInfo: [CodingUserInfoKey: Any] { [:] }
    let session: DecodingSession?
    let depth: Int
    /// The stored object whose properties `value` holds, for the backlinks it computes on demand.
    let object: ObjectRef?

    /// Makes a decoder for a value tree (nested objects given inline as maps).
    public init(value: Value) {
        self.init(value: value, codingPath: [], session: nil, depth: 0)
    }

    init(value: Value, codingPath: [any CodingKey], session: DecodingSession?, depth: Int, object: ObjectRef? = nil) {
        self.value = value
        self.codingPath = codingPath
        self.session = session
        self.depth = depth
        self.object = object
    }

    /// Decodes a value of `type` from `value`.
    public static func decode<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        try ValueDecoder(value: value).decode(type)
    }

    public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let entries) = value else { throw mismatch([String: Value].self, "an object") }
        return KeyedDecodingContainer(KeyedValueContainer<Key>(entries: entries, decoder: self))
    }

    public func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .list(let items) = value else { throw mismatch([Value].self, "a list") }
        return UnkeyedValueContainer(items: items, decoder: self)
    }

    public func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    func child(_ value: Value, key: any CodingKey) -> ValueDecoder {
        ValueDecoder(value: value, codingPath: codingPath + [key], session: session, depth: depth)
    }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindName)"))
    }

    /// Decodes `type` from this decoder's value, handling Kura's own kinds, stored objects and links.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let typed = try special(type) { return typed }
        if let linkType = type as? any LinkBox.Type {
            let box = linkType.makeEmpty()
            switch value {
            case .null: break
            case .object(let ref):
                guard let session else { throw mismatch(type, "a nested object") }
                session.fillLater(box, with: ref)
            default:
                box.fill(try decodeModel(linkType.targetType))
            }
            return try cast(box, type)
        }
        if let backlinksType = type as? any BacklinksBox.Type {
            return try cast(try decodeBacklinks(backlinksType), type)
        }
        if case .object(let ref) = value {
            guard let session else { throw mismatch(type, "a nested object") }
            return try session.object(type, at: ref, codingPath: codingPath, depth: depth)
        }
        return try T(from: self)
    }

    private func decodeModel<M: KuraObject>(_ type: M.Type) throws -> M { try M(from: self) }

    /// A backlink: stored objects are filled by the session once decoded, inline ones decoded here.
    private func decodeBacklinks<Box: BacklinksBox>(_ type: Box.Type) throws -> Box {
        let box = type.makeEmpty()
        switch value {
        case .null: break
        case .list(let items):
            let refs = items.compactMap { item -> ObjectRef? in
                if case .object(let ref) = item { return ref }
                return nil
            }
            if let session, refs.count == items.count {
                session.fillLater(box, with: refs)
            } else {
                let sourceType = type.sourceType
                box.fill(try items.enumerated().map { index, item in
                    try child(item, key: IndexKey(index: index)).decodeInlineModel(sourceType) as Any
                })
            }
        default:
            throw mismatch(type, "a list")
        }
        return box
    }

    private func decodeInlineModel<M: KuraObject>(_ type: M.Type) throws -> M { try decode(type) }

    private func special<T>(_ type: T.Type) throws -> T? {
        switch (type, value) {
        case (is Value.Type, _): return try cast(value, type)
        case (is Date.Type, .date(let date)): return try cast(date, type)
        case (is Data.Type, .data(let bytes)): return try cast(bytes, type)
        case (is UUID.Type, .uuid(let id)): return try cast(id, type)
        case (is Decimal128.Type, .decimal(let number)): return try cast(number, type)
        case (is ObjectId.Type, .objectId(let id)): return try cast(id, type)
        case (is Date.Type, _): throw mismatch(type, "date")
        case (is Data.Type, _): throw mismatch(type, "data")
        case (is UUID.Type, _): throw mismatch(type, "uuid")
        case (is Decimal128.Type, _): throw mismatch(type, "decimal")
        case (is ObjectId.Type, _): throw mismatch(type, "objectId")
        default: return nil
        }
    }

    private func cast<T>(_ value: Any, _ type: T.Type) throws -> T {
        guard let typed = value as? T else { throw mismatch(type, "\(type)") }
        return typed
    }

    func decodeBool() throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, "bool") }
        return flag
    }

    func decodeString() throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, "string") }
        return text
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .int(let number) = value else { throw mismatch(type, "int") }
        guard let exact = T(exactly: number) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "\(number) does not fit in \(type)"))
        }
        return exact
    }

    func decodeDouble() throws -> Double {
        switch value {
        case .double(let number): return number
        case .float(let number): return Double(number)
        case .int(let number): return Double(number)
        default: throw mismatch(Double.self, "double")
        }
    }

    func decodeFloat() throws -> Float {
        switch value {
        case .float(let number): return number
        case .double(let number) where !number.isFinite || abs(number) <= Double(Float.greatestFiniteMagnitude):
            return Float(number)
        case .int(let number): return Float(number)
        default: throw mismatch(Float.self, "float")
        }
    }
}
