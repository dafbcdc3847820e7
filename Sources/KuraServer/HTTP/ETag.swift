import HTTPTypes
import Hummingbird
import Kura

/// Strong entity tags from a document's bytes, so a tag changes exactly when the document does.
enum ETag {
    /// `"<first 32 hex digits of the SHA-256 of text>"`.
    static func of(_ text: String) -> String {
        "\"" + SHA256Digest.hex(of: text).prefix(32) + "\""
    }

    /// The `If-Match` or `If-None-Match` header of `request`, nil when absent; 400 `bad-precondition`
    /// when it is neither `*` nor a list of entity tags, since a condition that cannot be read must
    /// not let a request through as if it held (or failed).
    static func condition(_ field: HTTPField.Name, of request: Request) throws(Problem) -> String? {
        guard let value = request.headers[field] else { return nil }
        guard items(of: value) != nil else {
            let name = field == .ifNoneMatch ? "If-None-Match" : "If-Match"
            throw Problem(
                status: 400, code: "bad-precondition",
                detail: "\(name) '\(MessageText.shown(value))' is not * or a list of entity tags such as \"a1\", W/\"a1\"")
        }
        return value
    }

    /// The items of an `If-Match` or `If-None-Match` value as written: `*`, or each entity tag
    /// (`"…"` or `W/"…"`, of the bytes `!` and `#` to `~`, so a comma may stand inside one), the
    /// commas between them with spaces or tabs around; none for an empty value; nil when the value
    /// is none of these (what the API document's pattern for the two headers refuses).
    static func items(of value: String) -> [String]? {
        let bytes = Array(value.utf8)
        if bytes.isEmpty { return [] }
        if bytes == [UInt8(ascii: "*")] { return ["*"] }
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        var items: [String] = []
        var index = 0
        while true {
            let start = index
            if index + 1 < bytes.count && bytes[index] == UInt8(ascii: "W") && bytes[index + 1] == UInt8(ascii: "/") { index += 2 }
            guard index < bytes.count, bytes[index] == quote else { return nil }
            index += 1
            while index < bytes.count && bytes[index] != quote {
                guard bytes[index] == 0x21 || (0x23...0x7E).contains(bytes[index]) else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            index += 1
            items.append(String(decoding: bytes[start..<index], as: UTF8.self))
            if index == bytes.count { return items }
            while index < bytes.count && (bytes[index] == space || bytes[index] == tab) { index += 1 }
            guard index < bytes.count, bytes[index] == comma else { return nil }
            index += 1
            while index < bytes.count && (bytes[index] == space || bytes[index] == tab) { index += 1 }
        }
    }

    /// Whether an `If-None-Match` value (a list, or `*`) names `tag`, by weak comparison: `W/"…"`
    /// names the same tag as `"…"` (RFC 9110 §13.1.2).
    static func matchesWeakly(_ header: String, _ tag: String) -> Bool {
        items(of: header)?.contains { $0 == "*" || $0 == tag || $0 == "W/" + tag } ?? false
    }

    /// Whether an `If-Match` value (a list, or `*`) names `tag`, by strong comparison: a weak tag
    /// `W/"…"` never matches (RFC 9110 §13.1.1), since the write must be to exactly the bytes seen.
    static func matchesStrongly(_ header: String, _ tag: String) -> Bool {
        items(of: header)?.contains { $0 == "*" || $0 == tag } ?? false
    }
}
