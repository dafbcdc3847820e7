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
        case .blob(let bytes): bytes.withUnsafeBytes { appendHex($0) }
        }
    }

    /// Adds one staged cell as its column stores it (`PostgresLayout.stored`, or `storedMixed`
    /// in a mixed value's column), without making the bytes first: a text as the `bytea` of its
    /// UTF-8 bytes, and in a mixed column a number as the bytes of its text too.
    mutating func appendStored(_ cell: StoredCell, mixed: Bool) {
        switch cell {
        case .text(var text):
            separate()
            text.withUTF8 { appendHex(UnsafeRawBufferPointer($0)) }
        case .integer(let number) where mixed:
            separate()
            var text = String(number)
            text.withUTF8 { appendHex(UnsafeRawBufferPointer($0)) }
        case .real(let number) where mixed:
            separate()
            var text = Self.text(of: number)
            text.withUTF8 { appendHex(UnsafeRawBufferPointer($0)) }
        default:
            append(cell)
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

    /// bytea's hex form, its backslash doubled for COPY: `\\x` followed by two digits a byte.
    private mutating func appendHex(_ bytes: UnsafeRawBufferPointer) {
        buffer.writeStaticString("\\\\x")
        let count = bytes.count * 2
        guard count > 0 else { return }
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { out in
            var index = 0
            for byte in bytes {
                out[index] = Self.hexDigit(byte >> 4)
                out[index + 1] = Self.hexDigit(byte & 0x0f)
                index += 2
            }
            return count
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
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

}
