/// Numbers the `?` placeholders of a statement as PostgreSQL's `$1`, `$2`, …, so that statements
/// the engines share (the compiled queries, the write statements' shapes) run on it unchanged.
/// A `?` inside a quoted name, a string literal or a comment is left as it is.
enum PostgresPlaceholders {
    static func numbered(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        var result: [UInt8] = []
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        var closing: UInt8?
        var inLineComment = false
        var previous: UInt8 = 0
        for byte in sql.utf8 {
            defer { previous = byte }
            if inLineComment {
                if byte == UInt8(ascii: "\n") { inLineComment = false }
            } else if let quote = closing {
                if byte == quote { closing = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                closing = byte
            } else if byte == UInt8(ascii: "-") && previous == UInt8(ascii: "-") {
                inLineComment = true
            } else if byte == UInt8(ascii: "?") {
                number += 1
                result.append(UInt8(ascii: "$"))
                result.append(contentsOf: String(number).utf8)
                continue
            }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}
