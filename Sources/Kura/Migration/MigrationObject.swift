/// A read-only handle to an object as the realm stored it before a migration, by the old schema's
/// property names and types. Valid only inside the migration block that received it.
///
/// Read an old value before changing the new object: lists, sets and maps the migration keeps in
/// place, and the nested lists and maps of mixed values, are shared by both until the migration ends.
public struct MigrationObject {
    let source: OldObjects
    /// The object's type (in the old schema) and internal id, which it keeps in the new realm.
    public let ref: ObjectRef

    /// The object's type name in the old schema.
    public var type: String { ref.type }

    /// The value of one stored property of the old schema.
    public func value(forKey name: String) throws -> Value {
        try source.value(of: ref, name)
    }

    /// The value of one stored property of the old schema.
    public subscript(_ name: String) -> Value {
        get throws { try value(forKey: name) }
    }

    /// Every stored property of the old schema, by name.
    public func values() throws -> [String: Value] {
        try source.values(of: ref)
    }
}

/// Reads the old schema's objects during a migration, by the old schema's names, through the engine
/// that keeps them until the migration ends.
final class OldObjects {
    let reader: any OldObjectReading
    /// The schema the realm stored.
    let schema: Schema
    /// Cleared when the migration ends: the storage is not the handle's to use after that.
    var isOpen = true

    init(reader: any OldObjectReading, schema: Schema) {
        self.reader = reader
        self.schema = schema
    }

    /// Throws once the migration has ended.
    func requireOpen() throws(KuraError) {
        guard isOpen else {
            throw KuraError.migration(.migrationEnded, "the migration has ended: its objects can be read only inside the migration block")
        }
    }

    /// The old schema's type `name`, or an `unknownType` error.
    func type(_ name: String) throws(KuraError) -> ObjectSchema {
        guard let type = schema[type: name] else {
            throw KuraError.migration(.unknownType, schema.noTypeMessage(name, in: "the old schema"))
        }
        return type
    }

    /// The ids of the old objects of `type`, in creation order.
    func ids(of type: String) throws -> [Int64] {
        try requireOpen()
        _ = try self.type(type)
        return try reader.ids(of: type)
    }

    func value(of ref: ObjectRef, _ name: String) throws -> Value {
        try requireOpen()
        let type = try self.type(ref.type)
        guard let property = type[property: name], !property.isComputed else {
            throw KuraError.store(.unknownProperty, "\(ref.type) has no stored property '\(name)' in the old schema")
        }
        guard let value = try reader.value(of: ref, property) else {
            throw KuraError.store(.objectDeleted, "object \(ref) is not in the old realm")
        }
        return value
    }

    func values(of ref: ObjectRef) throws -> [String: Value] {
        var values: [String: Value] = [:]
        for property in try type(ref.type).storedProperties {
            values[property.name] = try value(of: ref, property.name)
        }
        return values
    }
}
