import Foundation
import Kura

/// A primary key as it appears in a URL (a path segment or a page cursor), read by the key's type.
struct PrimaryKeyText {
    /// The key as a value, for `Realm.object(ofType:forPrimaryKey:)`.
    let value: Value
    /// The key as a literal of Kura's predicate language, such as `42`, `'Rex'` or `oid(…)`.
    let literal: String

    /// Reads `text` as a key of `type`; throws 404 `unknown-key` when it cannot be one.
    init(_ text: String, of type: ObjectSchema) throws(Problem) {
        guard let property = type.primaryKeyProperty else {
            throw Problem.notFound("unknown-key", "type '\(type.name)' has no primary key")
        }
        let notAKey = Problem.notFound("unknown-key", "'\(MessageText.shown(text))' is not a key of type '\(type.name)' (its keys are \(property.type.nonOptional))")
        switch property.type.nonOptional {
        case .int:
            // One key, one address: `01` and `+1` are not the text of key 1.
            guard let number = Self.canonicalInteger(text) else { throw notAKey }
            value = .int(number)
            literal = String(number)
        case .string:
            value = .string(text)
            literal = Self.quoted(text)
        case .objectId:
            guard let id = ObjectId(hex: text) else { throw notAKey }
            value = .objectId(id)
            literal = "oid(\(id.hexString))"
        case .uuid:
            guard let id = UUID(uuidString: text) else { throw notAKey }
            value = .uuid(id)
            literal = "uuid(\(id.uuidString))"
        default:
            throw notAKey
        }
    }

    /// The text a URL carries for `value`, or `nil` for a value no key can hold.
    static func text(of value: Value) -> String? {
        switch value {
        case .int(let number): String(number)
        case .string(let text): text
        case .objectId(let id): id.hexString
        case .uuid(let id): id.uuidString
        default: nil
        }
    }

    /// `text` as an integer when it is written as `String(number)` writes it, else `nil`.
    static func canonicalInteger(_ text: String) -> Int64? {
        guard let number = Int64(text), String(number) == text else { return nil }
        return number
    }

    /// `text` as a single-quoted predicate string.
    private static func quoted(_ text: String) -> String {
        var result = "'"
        for character in text.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            default: result.unicodeScalars.append(character)
            }
        }
        return result + "'"
    }
}
