import Foundation

/// The text of scalar values as both document writers print them, appended as bytes to a buffer
/// so that writing a value builds no intermediate `String` where that can be avoided.
enum ValueText {
    /// The first millisecond of year 1 and of year 10000: ISO-8601 text with a four-digit year
    /// covers exactly the dates in between.
    static let isoDateRange: Range<Int64> = -62_135_596_800_000..<253_402_300_800_000

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    private static let base64Digits: [UInt8] =
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Appends the bytes of an ASCII literal.
    @inline(__always)
    static func append(_ literal: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 bytes unchanged.
    @inline(__always)
    static func append(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends `count` spaces.
    @inline(__always)
    static func appendSpaces(_ count: Int, to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    /// Appends an integer in decimal.
    static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        appendUnsigned(value.magnitude, to: &out)
    }

    private static func appendUnsigned(_ value: UInt64, to out: inout [UInt8]) {
        var digitCount = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digitCount))
        rest = value
        var index = start + digitCount - 1
        while rest > 0 {
            out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
    }

    /// Appends `value` zero-padded to `width` digits.
    private static func appendPadded(_ value: Int64, width: Int, to out: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Appends a finite double as Swift's shortest text that reads back as the same double. The
    /// text always has a `.` or an exponent (`1.0`, `1e-05`, `1e+20`), so a mixed value reads
    /// back as a double rather than an int.
    static func appendDouble(_ value: Double, to out: inout [UInt8]) {
        // Most doubles print in at most 15 bytes, which Swift keeps inline without allocating.
        append(value.description, to: &out)
    }

    /// Appends a finite float as its own shortest text when the mapper reads that text back (as a
    /// Double rounded to Float) as the same float; otherwise as the float's exact Double value.
    static func appendFloat(_ value: Float, to out: inout [UInt8]) {
        let text = value.description
        // Rounding the text to Double and then to Float can differ from rounding it to Float
        // directly, and the mapper refuses texts beyond Float's largest value before rounding.
        if let wide = Double(text), Float(wide) == value, wide.magnitude <= Double(Float.greatestFiniteMagnitude) {
            append(text, to: &out)
        } else {
            appendDouble(Double(value), to: &out)
        }
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS.sssZ`; the caller checks `milliseconds` is in `isoDateRange`.
    static func appendISODate(milliseconds: Int64, to out: inout [UInt8]) {
        let (days, millisecondOfDay) = DateFormatting.floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = DateFormatting.civil(fromDays: days)
        appendPadded(year, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendPadded(millisecondOfDay / 3_600_000, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(millisecondOfDay / 60_000 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(millisecondOfDay / 1000 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        appendPadded(millisecondOfDay % 1000, width: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// Appends bytes as lowercase hexadecimal digits.
    static func appendHex(_ bytes: some Collection<UInt8>, to out: inout [UInt8]) {
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
    }

    /// Bytes as lowercase hexadecimal digits.
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        appendHex(bytes, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the canonical lowercase text of a UUID (`8-4-4-4-12` hexadecimal digits).
    static func appendUUID(_ id: UUID, to out: inout [UInt8]) {
        withUnsafeBytes(of: id.uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// Appends standard base64 with padding, as `Data(base64Encoded:)` reads it.
    static func appendBase64(_ data: Data, to out: inout [UInt8]) {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index + 3 <= bytes.count {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                appendBase64Group(group, significant: 4, to: &out)
                index += 3
            }
            switch bytes.count - index {
            case 1:
                appendBase64Group(UInt32(bytes[index]) << 16, significant: 2, to: &out)
            case 2:
                appendBase64Group(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8, significant: 3, to: &out)
            default:
                break
            }
        }
    }

    /// Appends the four characters of a 24-bit group, the last `4 - significant` as `=` padding.
    private static func appendBase64Group(_ group: UInt32, significant: Int, to out: inout [UInt8]) {
        for position in 0..<4 {
            if position < significant {
                out.append(base64Digits[Int(group >> UInt32(18 - 6 * position) & 0x3F)])
            } else {
                out.append(UInt8(ascii: "="))
            }
        }
    }
}
