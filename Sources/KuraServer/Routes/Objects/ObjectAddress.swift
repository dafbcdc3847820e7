import Foundation
import Kura

/// How a URL names one object, `…/objects/{type}/{key}`: by its primary key, or, for a type without
/// one, by its object id (`ObjectRef.id`, a positive integer never reused within the type), the id
/// `GET …/changes` reports for such objects.
enum ObjectAddress {
    /// The object `text` names; 404 `unknown-key` when there is none.
    static func find(_ text: String, of type: ObjectSchema, in realm: Realm, realmName: String) throws -> DynamicObject {
        let missing = Problem.notFound("unknown-key", "realm '\(realmName)' has no \(type.name) with key '\(MessageText.shown(text))'")
        guard type.primaryKey != nil else {
            guard let id = PropertyType.canonicalInteger(text), id > 0 else {
                throw Problem.notFound(
                    "unknown-key", "'\(MessageText.shown(text))' is not an object id of type '\(type.name)', which has no primary key (its objects are named by id)")
            }
            guard let object = try realm.object(ObjectRef(type: type.name, id: id)) else { throw missing }
            return object
        }
        let key = try PrimaryKeyText(text, of: type)
        guard let object = try realm.object(ofType: type.name, forPrimaryKey: key.value) else { throw missing }
        return object
    }

    /// The text that names `object` in a URL (unencoded).
    static func key(of object: DynamicObject, type: ObjectSchema) throws -> String {
        key(of: object.ref, primaryKey: try type.primaryKey.map { try object.value(forKey: $0) })
    }

    /// The text that names `object`, which `find` found by `text`, in a URL (unencoded): the key
    /// `text` parses to, so the object is not read again for it.
    static func key(named text: String, of object: DynamicObject, type: ObjectSchema) throws -> String {
        guard type.primaryKey != nil else { return String(object.ref.id) }
        return key(of: object.ref, primaryKey: try PrimaryKeyText(text, of: type).value)
    }

    /// The text that names the object `ref` with primary key value `primaryKey` (`nil` for a type
    /// without one) in a URL (unencoded).
    static func key(of ref: ObjectRef, primaryKey: Value?) -> String {
        primaryKey?.primaryKeyText ?? String(ref.id)
    }

    /// `object`'s document as export writes it (one JSON line); with `nestedURLsIn` a realm's
    /// name, each object without a primary key nested in it carries its URL there under `"$url"`.
    static func document(of object: DynamicObject, in realm: Realm, nestedURLsIn realmName: String? = nil) throws -> String {
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: realm.schema, format: .jsonl, output: output)
        if let realmName { writer.nestedObjectURL = nestedURL(in: realmName) }
        var options = ExportOptions(type: object.type)
        options.objectIds = [object.ref.id]
        _ = try RealmExporter(realm: realm, options: options).run(to: writer)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// The URL of a nested object without a primary key in realm `realmName`: its object id.
    static func nestedURL(in realmName: String) -> (ObjectRef) -> String? {
        { ref in path(realm: realmName, type: ref.type, key: String(ref.id)) }
    }

    /// The object's URL path, each part percent-encoded.
    static func path(realm: String, type: String, key: String) -> String {
        "/v1/realms/\(encode(realm))/objects/\(encode(type))/\(encode(key))"
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with everything but unreserved characters percent-encoded.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
