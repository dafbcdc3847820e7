import CKuraCells
import NIOCore

/// Rows in the text format of PostgreSQL's `COPY … FROM STDIN`: one line per row, tabs between
/// the columns, `\N` for null, and a backslash before every backslash, tab, newline and carriage
/// return inside a value, so that any text or bytes arrive exactly.
///
/// A value is written with one reservation of the buffer: its length is known or bounded first.
struct PostgresCopyText {
    private(set) var buffer: ByteBuffer
    /// Whether the current line has a column yet.
    private var lineStarted = false

    init(capacity: Int = 1 << 16) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    /// Adds one column's value to the current row.
    mutating func append(_ cell: StoredCell) {
        switch cell {
        case .null: appendNull()
        case .integer(let number): appendInteger(number)
        case .real(let number): appendASCII(Self.text(of: number))
        case .text(var text): text.withUTF8 { appendEscapedText(UnsafeRawBufferPointer($0)) }
        case .blob(let bytes): bytes.withUnsafeBytes { appendBytea($0) }
        }
    }

    /// Adds the staged cell at `index` of `stage` as its column stores it (`PostgresLayout.stored`,
    /// or `storedMixed` in a mixed value's column), straight from the stage's bytes: a text or a
    /// blob as `bytea`, a number as its text, which is also how a mixed column's `bytea` holds it
    /// (in bytea's escape form, a decimal text stands for itself).
    mutating func appendStaged(_ stage: RowStage, at index: Int) {
        let cell = stage.cells[index]
        switch cell.type {
        case KURA_CELL_INTEGER: appendInteger(cell.value.integer)
        case KURA_CELL_REAL: appendASCII(Self.text(of: cell.value.real))
        case KURA_CELL_TEXT, KURA_CELL_BLOB: appendBytea(stage.stagedBytes(of: cell))
        default: appendNull()
        }
    }

    /// Ends the current row.
    mutating func endRow() {
        buffer.writeInteger(UInt8(ascii: "\n"))
        lineStarted = false
    }

    private mutating func appendNull() {
        write(count: 2) { out in
            out[0] = UInt8(ascii: "\\")
            out[1] = UInt8(ascii: "N")
        }
    }

    private mutating func appendInteger(_ number: Int64) {
        var magnitude = number.magnitude
        var digits = 1
        while magnitude >= 10 {
            magnitude /= 10
            digits += 1
        }
        let count = number < 0 ? digits + 1 : digits
        write(count: count) { out in
            var rest = number.magnitude
            var index = count - 1
            repeat {
                out[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                index -= 1
            } while rest > 0
            if number < 0 { out[0] = UInt8(ascii: "-") }
        }
    }

    /// Text known to hold no character COPY escapes (a number's).
    private mutating func appendASCII(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            write(count: bytes.count) { out in out.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        }
    }

    /// A `bytea` value in the shorter of its two input forms: the escape form, where printable
    /// ASCII stands for itself (most texts), or the hex form, two digits a byte (most binary data).
    /// Either is plain ASCII, so the server's encoding never alters it.
    private mutating func appendBytea(_ bytes: UnsafeRawBufferPointer) {
        var escaped = 0
        var backslashes = 0
        for byte in bytes {
            if byte == UInt8(ascii: "\\") {
                backslashes += 1
            } else if byte < 0x20 || byte > 0x7e {
                escaped += 1
            }
        }
        // With COPY's own backslashes doubled: `\\\\` for a backslash, `\\ooo` for an escaped byte.
        let escapeLength = bytes.count + 3 * backslashes + 4 * escaped
        let hexLength = 3 + 2 * bytes.count
        if escapeLength <= hexLength {
            appendEscapedBytea(bytes, count: escapeLength, plain: backslashes == 0 && escaped == 0)
        } else {
            appendHexBytea(bytes, count: hexLength)
        }
    }

    private mutating func appendEscapedBytea(_ bytes: UnsafeRawBufferPointer, count: Int, plain: Bool) {
        write(count: count) { out in
            if plain {
                out.copyMemory(from: bytes)
                return
            }
            var index = 0
            for byte in bytes {
                if byte == UInt8(ascii: "\\") {
                    for offset in 0..<4 { out[index + offset] = UInt8(ascii: "\\") }
                    index += 4
                } else if byte < 0x20 || byte > 0x7e {
                    out[index] = UInt8(ascii: "\\")
                    out[index + 1] = UInt8(ascii: "\\")
                    out[index + 2] = UInt8(ascii: "0") + (byte >> 6)
                    out[index + 3] = UInt8(ascii: "0") + ((byte >> 3) & 7)
                    out[index + 4] = UInt8(ascii: "0") + (byte & 7)
                    index += 5
                } else {
                    out[index] = byte
                    index += 1
                }
            }
        }
    }

    /// bytea's hex form, its backslash doubled for COPY: `\\x` followed by two digits a byte.
    private mutating func appendHexBytea(_ bytes: UnsafeRawBufferPointer, count: Int) {
        write(count: count) { out in
            out[0] = UInt8(ascii: "\\")
            out[1] = UInt8(ascii: "\\")
            out[2] = UInt8(ascii: "x")
            var index = 3
            for byte in bytes {
                out[index] = Self.hexDigit(byte >> 4)
                out[index + 1] = Self.hexDigit(byte & 0x0f)
                index += 2
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// A `text` column's value, COPY's four characters escaped.
    private mutating func appendEscapedText(_ bytes: UnsafeRawBufferPointer) {
        var count = bytes.count
        for byte in bytes where Self.isCopyEscaped(byte) { count += 1 }
        write(count: count) { out in
            var index = 0
            for byte in bytes {
                guard Self.isCopyEscaped(byte) else {
                    out[index] = byte
                    index += 1
                    continue
                }
                out[index] = UInt8(ascii: "\\")
                switch byte {
                case UInt8(ascii: "\t"): out[index + 1] = UInt8(ascii: "t")
                case UInt8(ascii: "\n"): out[index + 1] = UInt8(ascii: "n")
                case UInt8(ascii: "\r"): out[index + 1] = UInt8(ascii: "r")
                default: out[index + 1] = byte
                }
                index += 2
            }
        }
    }

    private static func isCopyEscaped(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// Writes one column of exactly `count` bytes, after the tab that separates it from the last.
    private mutating func write(count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void) {
        let separator = lineStarted ? 1 : 0
        lineStarted = true
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: separator + count) { out in
            if separator == 1 { out[0] = UInt8(ascii: "\t") }
            body(UnsafeMutableRawBufferPointer(rebasing: out[separator..<(separator + count)]))
            return separator + count
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
