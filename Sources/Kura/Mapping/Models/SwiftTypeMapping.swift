import Foundation

/// Maps Swift types in Codable models to schema property types.
enum SwiftTypeMapping {
    /// The schema type for a Swift type; `nil` if Kura cannot store it.
    static func propertyType(for type: Any.Type) -> PropertyType? {
        if let scalar = scalarType(for: type) { return scalar }
        if let optional = type as? any OptionalMarker.Type {
            guard let wrapped = propertyType(for: optional.wrappedType), !wrapped.isCollection else { return nil }
            return wrapped.isNullable ? wrapped : .optional(wrapped)
        }
        if let link = type as? any LinkBox.Type { return .optional(.object(link.targetType.typeName)) }
        if let model = type as? any KuraObject.Type { return .object(model.typeName) }
        if let collection = type as? any SchemaCollection.Type {
            guard let element = propertyType(for: collection.elementType), !element.isCollection else { return nil }
            switch collection.kind {
            case .list: return .list(element)
            case .set: return .set(element)
            case .map: return .map(element)
            }
        }
        return nil
    }

    static func scalarType(for type: Any.Type) -> PropertyType? {
        switch type {
        case is Bool.Type: .bool
        case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type, is Int8.Type, is UInt8.Type, is UInt16.Type,
            is UInt32.Type:
            .int
        case is Float.Type: .float
        case is Double.Type: .double
        case is String.Type: .string
        case is Date.Type: .date
        case is Data.Type: .data
        case is Decimal128.Type: .decimal
        case is ObjectId.Type: .objectId
        case is UUID.Type: .uuid
        case is Value.Type: .mixed
        default: nil
        }
    }

    /// The model types a Swift type refers to (through optionals, links and collections).
    static func modelType(in type: Any.Type) -> (any KuraObject.Type)? {
        if let model = type as? any KuraObject.Type { return model }
        if let link = type as? any LinkBox.Type { return link.targetType }
        if let optional = type as? any OptionalMarker.Type { return modelType(in: optional.wrappedType) }
        if let collection = type as? any SchemaCollection.Type { return modelType(in: collection.elementType) }
        return nil
    }
}

/// Lets the coders see through `Optional` without knowing its wrapped type statically.
protocol OptionalMarker {
    static var wrappedType: Any.Type { get }
    static var nilValue: Self { get }
}

extension Optional: OptionalMarker {
    static var wrappedType: Any.Type { Wrapped.self }
    static var nilValue: Self { nil }
}

/// Arrays, sets and string-keyed dictionaries, as schema collections.
protocol SchemaCollection {
    static var elementType: Any.Type { get }
    static var kind: SchemaCollectionKind { get }
    static var empty: Self { get }
}

enum SchemaCollectionKind { case list, set, map }

extension Array: SchemaCollection {
    static var elementType: Any.Type { Element.self }
    static var kind: SchemaCollectionKind { .list }
    static var empty: Self { [] }
}

extension Set: SchemaCollection {
    static var elementType: Any.Type { Element.self }
    static var kind: SchemaCollectionKind { .set }
    static var empty: Self { [] }
}

extension Dictionary: SchemaCollection where Key == String {
    static var elementType: Any.Type { Value.self }
    static var kind: SchemaCollectionKind { .map }
    static var empty: Self { [:] }
}
