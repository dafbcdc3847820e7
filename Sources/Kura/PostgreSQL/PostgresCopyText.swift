import NIOCore

/// Rows in the text format of PostgreSQL's `COPY … FROM STDIN`: one line per row, tabs between
/// the columns, `\N` for null, and a backslash before every backslash, tab, newline and carriage
/// return inside a value, so that any text or bytes arrive exactly.
struct PostgresCopyText {
    private(set) var buffer: ByteBuffer
    /// Whether the current line has a column yet.
    private var lineStarted = false

    init(capacity: Int = 1 << 16) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    /// Adds one column's value to the current row.
    mutating func append(_ cell: StoredCell) {
        separate()
        switch cell {
        case .null: buffer.writeStaticString("\\N")
        case .integer(let number): buffer.writeString(String(number))
        case .real(let number): buffer.writeString(Self.text(of: number))
        case .text(let text): appendEscaped(text.utf8)
        case .blob(let bytes):
            // bytea's hex form, its backslash doubled for COPY: \\x followed by two digits a byte.
            buffer.writeStaticString("\\\\x")
            for byte in bytes {
                buffer.writeInteger(Self.hexDigits[Int(byte >> 4)])
                buffer.writeInteger(Self.hexDigits[Int(byte & 0x0f)])
            }
        }
    }

    /// Ends the current row.
    mutating func endRow() {
        buffer.writeInteger(UInt8(ascii: "\n"))
        lineStarted = false
    }

    private mutating func separate() {
        if lineStarted { buffer.writeInteger(UInt8(ascii: "\t")) }
        lineStarted = true
    }

    private mutating func appendEscaped(_ bytes: String.UTF8View) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
            case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
            case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
            case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
    }

    /// A double as `double precision` reads it back to the same bits: the shortest text that
    /// round-trips, `-0` kept, and PostgreSQL's names for the infinities and NaN.
    static func text(of number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return number.description
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
