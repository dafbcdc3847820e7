import Foundation

/// Strong entity tags from a document's bytes, so a tag changes exactly when the document does.
enum ETag {
    /// `"<first 32 hex digits of the SHA-256 of text>"`.
    static func of(_ text: String) -> String {
        "\"" + SHA256Digest.hex(of: text).prefix(32) + "\""
    }

    /// Whether an `If-None-Match` or `If-Match` value (a list, or `*`) names `tag`.
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { item in
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }
}
