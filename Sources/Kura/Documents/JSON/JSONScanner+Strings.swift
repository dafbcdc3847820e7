/// String tokens: UTF-8 validation, escapes and surrogate pairs.
extension JSONScanner {
    /// Scans the string whose opening quote is at `pos` and leaves `pos` after the closing quote.
    /// Object keys pass `isKey` so repeated keys share one `String`.
    mutating func scanString(isKey: Bool = false) throws(KuraError) -> String {
        var start = pos
        var i = start + 1
        // Continuation bytes seen in this string, for columns of errors and of later tokens.
        var continuation = 0
        // Fast path: no escapes, so the string is the bytes between the quotes.
        while true {
            let p = buf
            let e = end
            scan: while i < e {
                let b = p[i]
                if b >= 0x20 && b < 0x80 && b != 0x22 && b != 0x5C {
                    i += 1
                    continue
                }
                if b == 0x22 {
                    // Validated above, so decoding cannot repair anything.
                    let s =
                        isKey
                        ? keyCache.string(p + start + 1, count: i - start - 1)
                        : String(decoding: UnsafeBufferPointer(start: p + start + 1, count: i - start - 1), as: UTF8.self)
                    pos = i + 1
                    lineContinuationBytes += continuation
                    return s
                }
                if b == 0x5C {
                    return try scanEscapedString(from: start, at: i, continuation: continuation)
                }
                if b < 0x20 {
                    throw controlCharacterError(b, at: i, continuation: continuation)
                }
                let length = Self.utf8Length(p, i, e)
                if length > 0 {
                    i += length
                    continuation += length - 1
                } else if length == 0 {
                    throw invalidUTF8Error(at: i, continuation: continuation)
                } else {
                    break scan
                }
            }
            // Out of bytes, or a character cut at the window's end: read on from where we stopped.
            let done = i - start
            guard try refill(keeping: &start) else { throw endError(" in string", pendingContinuation: continuation) }
            i = start + done
        }
    }

    /// Continues a string at the backslash at `i`, unescaping into `scratch`.
    private mutating func scanEscapedString(from start: Int, at i: Int, continuation: Int) throws(KuraError) -> String {
        var i = i
        var continuation = continuation
        scratch.removeAll(keepingCapacity: true)
        // Bytes from `run` to `i` are plain text not yet copied to `scratch`.
        var run = start + 1
        while true {
            let p = buf
            let e = end
            scan: while i < e {
                let b = p[i]
                if b >= 0x20 && b < 0x80 && b != 0x22 && b != 0x5C {
                    i += 1
                    continue
                }
                if b == 0x22 {
                    scratch.append(contentsOf: UnsafeBufferPointer(start: p + run, count: i - run))
                    pos = i + 1
                    lineContinuationBytes += continuation
                    return String(decoding: scratch, as: UTF8.self)
                }
                if b == 0x5C {
                    scratch.append(contentsOf: UnsafeBufferPointer(start: p + run, count: i - run))
                    run = i
                    let consumed = try unescape(at: i, continuation: continuation)
                    if consumed == 0 { break scan }
                    i += consumed
                    run = i
                    continue
                }
                if b < 0x20 {
                    throw controlCharacterError(b, at: i, continuation: continuation)
                }
                let length = Self.utf8Length(p, i, e)
                if length > 0 {
                    i += length
                    continuation += length - 1
                } else if length == 0 {
                    throw invalidUTF8Error(at: i, continuation: continuation)
                } else {
                    break scan
                }
            }
            // Copy what is done so only the bytes from `i` on need to stay in the window (the
            // cursor too moves on, as the window keeps everything from it).
            scratch.append(contentsOf: UnsafeBufferPointer(start: p + run, count: i - run))
            pos = i
            var keep = i
            guard try refill(keeping: &keep) else { throw endError(" in string", pendingContinuation: continuation) }
            i = keep
            run = keep
        }
    }

    /// Appends the escape at the backslash at `i` to `scratch` and returns its length in bytes,
    /// or 0 if the window ends before the escape does.
    private mutating func unescape(at i: Int, continuation: Int) throws(KuraError) -> Int {
        let p = buf
        let e = end
        guard i + 1 < e else { return 0 }
        let c = p[i + 1]
        switch c {
        case 0x22, 0x5C, 0x2F: scratch.append(c)  // \" \\ \/
        case 0x62: scratch.append(0x08)  // \b
        case 0x66: scratch.append(0x0C)  // \f
        case 0x6E: scratch.append(0x0A)  // \n
        case 0x72: scratch.append(0x0D)  // \r
        case 0x74: scratch.append(0x09)  // \t
        case 0x75:  // \uXXXX
            guard let unit = try hexEscape(at: i, continuation: continuation) else { return 0 }
            if unit >= 0xDC00 && unit <= 0xDFFF {
                throw loneSurrogateError(unit, at: i, continuation: continuation)
            }
            guard unit >= 0xD800 && unit <= 0xDBFF else {
                appendUTF8(unit)
                return 6
            }
            // A high surrogate must be followed at once by an escaped low surrogate.
            if i + 6 < e && p[i + 6] != 0x5C || i + 7 < e && p[i + 7] != 0x75 {
                throw loneSurrogateError(unit, at: i, continuation: continuation)
            }
            guard i + 7 < e, let low = try hexEscape(at: i + 6, continuation: continuation) else { return 0 }
            guard low >= 0xDC00 && low <= 0xDFFF else {
                throw loneSurrogateError(unit, at: i, continuation: continuation)
            }
            appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            return 12
        default:
            let message =
                c >= 0x21 && c <= 0x7E
                ? "invalid escape '\\\(Character(Unicode.Scalar(c)))' in string" : "invalid escape in string"
            throw error(.invalidString, message, at: i, pendingContinuation: continuation)
        }
        return 2
    }

    /// The code unit of the `\uXXXX` at `i`, or nil if the window ends first; throws on a non-hex digit.
    private func hexEscape(at i: Int, continuation: Int) throws(KuraError) -> UInt32? {
        var unit: UInt32 = 0
        for k in 2..<6 {
            guard i + k < end else { return nil }
            let b = buf[i + k]
            let digit: UInt8
            switch b {
            case 0x30...0x39: digit = b - 0x30
            case 0x41...0x46: digit = b - 0x41 + 10
            case 0x61...0x66: digit = b - 0x61 + 10
            default:
                throw error(
                    .invalidString, "invalid \\u escape in string, expected 4 hex digits", at: i,
                    pendingContinuation: continuation)
            }
            unit = unit << 4 | UInt32(digit)
        }
        return unit
    }

    /// Appends a scalar's UTF-8 bytes to `scratch`.
    private mutating func appendUTF8(_ value: UInt32) {
        if value < 0x80 {
            scratch.append(UInt8(value))
        } else if value < 0x800 {
            scratch.append(UInt8(0xC0 | value >> 6))
            scratch.append(UInt8(0x80 | value & 0x3F))
        } else if value < 0x10000 {
            scratch.append(UInt8(0xE0 | value >> 12))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        } else {
            scratch.append(UInt8(0xF0 | value >> 18))
            scratch.append(UInt8(0x80 | value >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        }
    }

    private func controlCharacterError(_ b: UInt8, at i: Int, continuation: Int) -> KuraError {
        error(
            .invalidString, "unescaped control character \(Self.scalarName(UInt32(b))) in string", at: i,
            pendingContinuation: continuation)
    }

    private func invalidUTF8Error(at i: Int, continuation: Int) -> KuraError {
        error(.invalidUTF8, "invalid UTF-8 byte \(Self.hexByte(buf[i])) in string", at: i, pendingContinuation: continuation)
    }

    private func loneSurrogateError(_ unit: UInt32, at i: Int, continuation: Int) -> KuraError {
        let digits = String(unit, radix: 16)
        return error(.invalidString, "lone surrogate \\u\(digits) in string", at: i, pendingContinuation: continuation)
    }
}
