import Foundation

/// Strong entity tags from a document's bytes, so a tag changes exactly when the document does.
enum ETag {
    /// `"<first 32 hex digits of the SHA-256 of text>"`.
    static func of(_ text: String) -> String {
        "\"" + SHA256Digest.hex(of: text).prefix(32) + "\""
    }

    /// Whether an `If-None-Match` value (a list, or `*`) names `tag`, by weak comparison: `W/"…"`
    /// names the same tag as `"…"` (RFC 9110 §13.1.2).
    static func matchesWeakly(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { item in
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }

    /// Whether an `If-Match` value (a list, or `*`) names `tag`, by strong comparison: a weak tag
    /// `W/"…"` never matches (RFC 9110 §13.1.1), since the write must be to exactly the bytes seen.
    static func matchesStrongly(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { item in
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag
        }
    }
}
