import Foundation
import Kura

/// The body of a PUT or PATCH with the key of the URL: the URL's key wins, so a body that leaves the
/// primary key out gets it, and one whose key differs is refused (422, pointing at the body's key).
enum KeyedDocument {
    /// `node` with its primary key set to `key`; throws `KuraError` when the body gives another.
    static func node(_ node: DocumentNode, key: PrimaryKeyText, type: ObjectSchema) throws -> DocumentNode {
        guard let keyName = type.primaryKey, case .object(var members) = node.value else { return node }
        if let member = members.first(where: { $0.key == keyName }) {
            guard same(member.value, key.value) else {
                throw KuraError.mapping(
                    .invalidValue, file: "body", position: member.value.position, path: "$.\(keyName)",
                    "the key differs from the one in the URL, \(key.value.primaryKeyText ?? ""): the URL's key wins")
            }
            return node
        }
        members.append(DocumentMember(key: keyName, keyPosition: node.position, value: DocumentNode(value: value(of: key.value), position: node.position)))
        return DocumentNode(value: .object(members), position: node.position)
    }

    /// Whether the document value `node` is the key `value`.
    private static func same(_ node: DocumentNode, _ value: Value) -> Bool {
        switch (node.value, value) {
        case (.anchored(_, let inner), _): same(inner, value)
        case (.number(let number), .int(let key)): number.isInteger && number.int64Value == key
        case (.string(let text), .string(let key)): text == key
        case (.string(let text), .objectId(let key)): ObjectId(hex: text) == key
        case (.string(let text), .uuid(let key)): UUID(uuidString: text) == key
        default: false
        }
    }

    /// The document value a key is written as.
    private static func value(of key: Value) -> DocumentValue {
        switch key {
        case .int(let number):
            .number(NumberLiteral(text: String(number), isInteger: true, int64Value: number, doubleValue: Double(number)))
        default:
            .string(key.primaryKeyText ?? "")
        }
    }
}
