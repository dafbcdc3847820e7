import Foundation

extension Schema {
    /// Derives a schema from Codable model types and every model type they refer to.
    public init(models: [any KuraObject.Type], version: Int64 = 0) throws {
        var types: [ObjectSchema] = []
        var pending = models
        var seen = Set<String>()
        while !pending.isEmpty {
            let model = pending.removeFirst()
            guard seen.insert(model.typeName).inserted else { continue }
            let (objectSchema, referenced) = try SchemaInspector.inspect(model)
            types.append(objectSchema)
            pending.append(contentsOf: referenced)
        }
        self.init(version: version, types: types)
        try validate()
    }
}

/// Derives one type's schema by running its `init(from:)` against a decoder that records what is asked.
enum SchemaInspector {
    static func inspect(_ model: any KuraObject.Type) throws -> (ObjectSchema, [any KuraObject.Type]) {
        let recorder = InspectionRecorder(typeName: model.typeName)
        do {
            _ = try model.init(from: InspectingDecoder(recorder: recorder))
        } catch let error as KuraError where error.code.domain == .schema {
            throw error
        } catch {
            throw KuraError.schema(.invalidType, "\(model.typeName): cannot derive a schema: \(error)", underlying: error)
        }
        var properties: [Property] = []
        var referenced: [any KuraObject.Type] = []
        let options = model.propertyOptions
        for (name, swiftType) in recorder.properties {
            if let origin = options[name]?.linkingObjects {
                try checkBacklink(model.typeName, name, declaredAs: swiftType, source: origin.type)
                properties.append(Property(name: name, type: .linkingObjects(type: origin.type, property: origin.property)))
                continue
            }
            guard var type = SwiftTypeMapping.propertyType(for: swiftType) else {
                throw KuraError.schema(.invalidType, "\(model.typeName).\(name): Kura cannot store values of type \(swiftType)")
            }
            let option = options[name] ?? PropertyOptions()
            // An optional Swift property whose value Kura fills in (key counter, default) is required in the schema.
            if option.defaultValue != nil || option.isAutoIncrement || name == model.primaryKey {
                type = type.nonOptional
            }
            if case .object(let target) = type {
                throw KuraError.schema(.invalidType, "\(model.typeName).\(name): a link to \(target) must be optional")
            }
            if let target = SwiftTypeMapping.modelType(in: swiftType) { referenced.append(target) }
            properties.append(Property(
                name: name, type: type, defaultValue: option.defaultValue, isIndexed: option.isIndexed,
                isAutoIncrement: option.isAutoIncrement, renamedFrom: option.renamedFrom))
        }
        for name in options.keys.sorted() {
            guard let option = options[name], let origin = option.linkingObjects else { continue }
            if let source = option.linkingModel?.type { referenced.append(source) }
            guard !properties.contains(where: { $0.name == name }) else { continue }
            properties.append(Property(name: name, type: .linkingObjects(type: origin.type, property: origin.property)))
        }
        let schema = ObjectSchema(
            name: model.typeName, properties: properties, primaryKey: model.primaryKey, isEmbedded: model.isEmbedded,
            isAsymmetric: model.isAsymmetric)
        return (schema, referenced)
    }

    /// Refuses a backlink whose Swift type cannot hold the objects of `source`: it must be
    /// `@Backlinks var name: [Source]` or `[Source]`. The schema's validation checks the link it mirrors.
    private static func checkBacklink(_ typeName: String, _ name: String, declaredAs swiftType: Any.Type, source: String) throws {
        var declared = swiftType
        if let optional = declared as? any OptionalMarker.Type { declared = optional.wrappedType }
        let element: (any KuraObject.Type)?
        if let box = declared as? any BacklinksBox.Type {
            element = box.sourceType
        } else if let list = declared as? any SchemaCollection.Type, list.kind == .list {
            element = list.elementType as? any KuraObject.Type
        } else {
            element = nil
        }
        guard element?.typeName == source else {
            throw KuraError.schema(
                .invalidLinkingObjects,
                "\(typeName).\(name): a linkingObjects property must be declared as '@Backlinks var \(name): [\(source)]' "
                    + "or '[\(source)]', not \(Self.swiftName(swiftType))")
        }
    }

    /// How a Swift type reads in a declaration: `[Person]` rather than `Array<Person>`.
    private static func swiftName(_ type: Any.Type) -> String {
        if let optional = type as? any OptionalMarker.Type {
            // A wrapped property is recorded as optional when its decoding tolerates a missing key.
            let wrapped = swiftName(optional.wrappedType)
            return optional.wrappedType is any BacklinksBox.Type ? wrapped : wrapped + "?"
        }
        if let box = type as? any BacklinksBox.Type { return "Backlinks<\(box.sourceType)>" }
        if let collection = type as? any SchemaCollection.Type {
            switch collection.kind {
            case .list: return "[\(swiftName(collection.elementType))]"
            case .set: return "Set<\(swiftName(collection.elementType))>"
            case .map: return "[String: \(swiftName(collection.elementType))]"
            }
        }
        return String(describing: type)
    }
}

/// The keys and Swift types a model's decoding asked for, in order.
final class InspectionRecorder {
    let typeName: String
    var properties: [(String, Any.Type)] = []
    /// Keys probed with `decodeNil` just before their decode: the standard `decodeIfPresent` overloads do that.
    private var probedForNil: Set<String> = []

    init(typeName: String) { self.typeName = typeName }

    func noteNilProbe(_ key: any CodingKey) { probedForNil.insert(key.stringValue) }

    func record<T>(_ key: any CodingKey, _ type: T.Type) {
        guard !properties.contains(where: { $0.0 == key.stringValue }) else { return }
        let optional = probedForNil.contains(key.stringValue) && !(type is any OptionalMarker.Type)
        properties.append((key.stringValue, optional ? Optional<T>.self : type))
    }

    /// A stand-in value of `type` so that decoding can go on.
    func placeholder<T>(_ type: T.Type, key: any CodingKey) throws -> T {
        let value: Any?
        switch type {
        case is Date.Type: value = Date(timeIntervalSince1970: 0)
        case is Data.Type: value = Data()
        case is UUID.Type: value = UUID()
        case is Decimal128.Type: value = Decimal128("0")
        case is ObjectId.Type: value = ObjectId(bytes: Array(repeating: 0, count: 12))
        case is Value.Type: value = Value.null
        default:
            if let collection = type as? any SchemaCollection.Type {
                value = collection.empty
            } else if let link = type as? any LinkBox.Type {
                value = link.makeEmpty()
            } else if let optional = type as? any OptionalMarker.Type {
                value = optional.nilValue
            } else if let model = type as? any KuraObject.Type {
                throw KuraError.schema(.invalidType, "\(typeName).\(key.stringValue): a link to \(model.typeName) must be optional")
            } else {
                value = nil
            }
        }
        guard let typed = value as? T else {
            throw KuraError.schema(.invalidType, "\(typeName).\(key.stringValue): Kura cannot store values of type \(type)")
        }
        return typed
    }
}

struct InspectingDecoder: Decoder {
    let recorder: InspectionRecorder
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(InspectingContainer<Key>(recorder: recorder))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw KuraError.schema(.invalidType, "\(recorder.typeName): a model must decode from a keyed container")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw KuraError.schema(.invalidType, "\(recorder.typeName): a model must decode from a keyed container")
    }
}

struct InspectingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: InspectionRecorder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool {
        recorder.noteNilProbe(key)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        recorder.record(key, type)
        return try recorder.placeholder(type, key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        recorder.record(key, Optional<T>.self)
        return nil
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }

    private func decode<T: Decodable & InspectionPlaceholder>(_ type: T.Type, _ key: Key) throws -> T {
        recorder.record(key, type)
        return T.placeholder
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw KuraError.schema(.invalidType, "\(recorder.typeName).\(key.stringValue): nested containers are not supported in models")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw KuraError.schema(.invalidType, "\(recorder.typeName).\(key.stringValue): nested containers are not supported in models")
    }

    func superDecoder() throws -> any Decoder { InspectingDecoder(recorder: recorder) }
    func superDecoder(forKey key: Key) throws -> any Decoder { InspectingDecoder(recorder: recorder) }
}

/// Primitive types with a neutral stand-in value.
protocol InspectionPlaceholder { static var placeholder: Self { get } }
extension Bool: InspectionPlaceholder { static var placeholder: Bool { false } }
extension String: InspectionPlaceholder { static var placeholder: String { "" } }
extension Double: InspectionPlaceholder { static var placeholder: Double { 0 } }
extension Float: InspectionPlaceholder { static var placeholder: Float { 0 } }
extension Int: InspectionPlaceholder { static var placeholder: Int { 0 } }
extension Int8: InspectionPlaceholder { static var placeholder: Int8 { 0 } }
extension Int16: InspectionPlaceholder { static var placeholder: Int16 { 0 } }
extension Int32: InspectionPlaceholder { static var placeholder: Int32 { 0 } }
extension Int64: InspectionPlaceholder { static var placeholder: Int64 { 0 } }
extension UInt8: InspectionPlaceholder { static var placeholder: UInt8 { 0 } }
extension UInt16: InspectionPlaceholder { static var placeholder: UInt16 { 0 } }
extension UInt32: InspectionPlaceholder { static var placeholder: UInt32 { 0 } }
