#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns the scanner's byte buffer, so the memory is freed exactly once. It is resized in place
/// (`realloc`): for a large window the system moves its pages rather than its bytes.
final class JSONScanBuffer {
    /// Bytes allocated past `capacity` so word-sized loads near the end stay in bounds (see `JSONKeyCache`).
    static let slack = 64

    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        guard let raw = malloc(capacity + Self.slack) else {
            // As Swift's own allocations do when memory runs out.
            fatalError("out of memory: cannot allocate the JSON reader's window of \(capacity) bytes")  // safe: only when the system has no memory left, where every Swift allocation traps too
        }
        bytes = raw.assumingMemoryBound(to: UInt8.self)
        // Initialized so reading the slack is reading defined memory; the scanner clears the
        // bytes after each read's end for the same reason.
        bytes.initialize(repeating: 0, count: capacity + Self.slack)
    }

    deinit { free(bytes) }

    /// Makes the buffer hold `newCapacity` bytes (and the slack), keeping the first
    /// `min(capacity, newCapacity)`; false, with nothing changed, when memory runs out.
    func resize(to newCapacity: Int) -> Bool {
        guard let raw = realloc(bytes, newCapacity + Self.slack) else { return false }
        bytes = raw.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
        return true
    }
}

/// The byte-level half of the JSON reader: a sliding window over the input, whitespace,
/// tokens (strings, numbers, literals in the extensions) and positions.
///
/// Only `[0, end)` of the window holds input; `base` is the input offset of window byte 0.
/// Refilling drops the bytes before the token being scanned, so memory stays bounded by
/// the largest token plus a chunk. Hot loops copy fields into locals and work on the raw pointer.
struct JSONScanner {
    /// The name errors print.
    let file: String
    /// How many bytes to ask the source for at a time.
    let chunkSize: Int
    let source: JSONByteSource
    private var storage: JSONScanBuffer
    /// `storage.bytes`, cached.
    private(set) var buf: UnsafeMutablePointer<UInt8>
    /// Bytes of input in the window.
    private(set) var end = 0
    /// The next byte to look at.
    var pos = 0
    /// The input offset of window byte 0.
    private(set) var base = 0
    /// Whether the source has no more bytes.
    private(set) var atEOF = false

    /// The current line, from 1.
    private(set) var line = 1
    /// The input offset where the current line starts.
    private(set) var lineStart = 0
    /// UTF-8 continuation bytes on the current line before the cursor; subtracted so columns count scalars.
    var lineContinuationBytes = 0
    /// Set while reading a JSON Lines value, where a line feed inside the value is an error.
    var forbidNewlines = false
    /// Reused buffer for strings with escapes.
    var scratch: [UInt8] = []
    /// Recently seen object keys.
    var keyCache = JSONKeyCache()
    /// Bytes of input handled again so far: moved or copied to keep a token in the window across
    /// refills, or scanned again after one. Linear work keeps it within a small multiple of the
    /// input's size, whatever the chunking (tests check it).
    private(set) var rehandledBytes = 0

    init(source: JSONByteSource, chunkSize: Int) {
        self.file = source.name
        self.source = source
        self.chunkSize = max(1, chunkSize)
        storage = JSONScanBuffer(capacity: self.chunkSize * 2)
        buf = storage.bytes
    }

    /// The input offset of the cursor.
    var offset: Int { base + pos }

    /// The position of window byte `i`; `pendingContinuation` counts continuation bytes of the
    /// current token before `i` that are not yet in `lineContinuationBytes`.
    func position(at i: Int, pendingContinuation: Int = 0) -> TextPosition {
        let absolute = base + i
        return TextPosition(
            line: line, column: absolute - lineStart - lineContinuationBytes - pendingContinuation + 1, offset: absolute)
    }

    /// Reads more input, keeping window bytes from `start` on (which moves `start`, and `pos`, down).
    /// Returns false at the end of input.
    ///
    /// A token's cost is linear in its length however its bytes arrive: the window grows by
    /// doubling when less than a chunk of room is left, and each read takes what room there is
    /// (up to as much as is kept), so a long token is moved a bounded number of times whether the
    /// source hands over whole chunks (a file) or a few KiB at a time (a request body).
    mutating func refill(keeping start: inout Int) throws(KuraError) -> Bool {
        if atEOF { return false }
        // The cursor is kept too, so it never points before the window.
        let from = min(start, pos)
        let kept = end - from
        if from > 0 && kept > 0 {
            memmove(buf, buf + from, kept)
            rehandledBytes += kept
        }
        base += from
        pos -= from
        start -= from
        end = kept
        let normal = 2 * chunkSize
        if storage.capacity - kept < chunkSize {
            let grown = max(kept + chunkSize, 2 * storage.capacity)
            guard storage.resize(to: grown) else {
                throw error(.io, "out of memory: cannot hold a token of \(Counted(kept, "byte")) in a window of \(grown)", at: pos)
            }
            buf = storage.bytes
            rehandledBytes += kept
        } else if storage.capacity > 2 * normal && kept + chunkSize <= normal {
            // Shrunk back after a huge token, so one huge document does not pin its memory.
            if storage.resize(to: normal) { buf = storage.bytes }
        }
        // As much as is kept, at least a chunk: a file fills the window in a few reads.
        let want = min(storage.capacity - kept, max(chunkSize, kept))
        let n = try source.read(into: buf + end, count: want)
        if n == 0 {
            atEOF = true
            return false
        }
        end += n
        // Bytes past the end are read by word-sized loads (see `JSONScanBuffer.slack`).
        (buf + end).initialize(repeating: 0, count: JSONScanBuffer.slack)
        return true
    }

    /// Makes sure `count` bytes from `pos` are in the window unless the input ends first.
    mutating func ensure(_ count: Int) throws(KuraError) {
        var start = pos
        while end - pos < count {
            guard try refill(keeping: &start) else { return }
        }
    }

    /// Skips whitespace and returns the next byte without consuming it, or nil at the end of input.
    @inline(__always)
    mutating func skipWhitespace() throws(KuraError) -> UInt8? {
        while true {
            let p = buf
            let e = end
            var i = pos
            while i < e {
                let b = p[i]
                if b > 0x20 {
                    pos = i
                    return b
                }
                if b == 0x20 || b == 0x09 || b == 0x0D {
                    i += 1
                } else if b == 0x0A {
                    if forbidNewlines {
                        pos = i
                        throw error(.syntax, "line break inside a JSON Lines value", at: i)
                    }
                    i += 1
                    line += 1
                    lineStart = base + i
                    lineContinuationBytes = 0
                } else {
                    pos = i
                    return b
                }
            }
            pos = i
            var keep = i
            guard try refill(keeping: &keep) else { return nil }
        }
    }

    /// Skips spaces, tabs and carriage returns (not line feeds); returns the next byte or nil at the end.
    mutating func skipSpacesOnLine() throws(KuraError) -> UInt8? {
        while true {
            while pos < end {
                let b = buf[pos]
                guard b == 0x20 || b == 0x09 || b == 0x0D else { return b }
                pos += 1
            }
            var keep = pos
            guard try refill(keeping: &keep) else { return nil }
        }
    }

    /// Skips a UTF-8 byte order mark at the very start of the input.
    mutating func skipByteOrderMark() throws(KuraError) {
        guard base + pos == 0 else { return }
        try ensure(3)
        if end - pos >= 3 && buf[pos] == 0xEF && buf[pos + 1] == 0xBB && buf[pos + 2] == 0xBF {
            pos += 3
            // Editors do not show the mark, so the next character is column 1.
            lineStart = 3
        }
    }

    // MARK: - Errors

    /// An error at window byte `i`.
    func error(_ code: KuraError.DocumentCode, _ message: String, at i: Int, pendingContinuation: Int = 0) -> KuraError {
        KuraError.document(code, message, file: file, position: position(at: i, pendingContinuation: pendingContinuation))
    }

    /// "unexpected end of input" plus `context`, at the end of input.
    func endError(_ context: String, pendingContinuation: Int = 0) -> KuraError {
        error(.unexpectedEnd, "unexpected end of input\(context)", at: end, pendingContinuation: pendingContinuation)
    }

    /// "unexpected character X" plus `context` for window byte `i`, or an invalid UTF-8 error if
    /// the byte does not start a valid character.
    mutating func unexpected(at i: Int, _ context: String) -> KuraError {
        let b = buf[i]
        if b < 0x80 {
            return error(.syntax, "unexpected character \(Self.describe(b))\(context)", at: i)
        }
        // Decode the character so the message names it; it may be cut at the window's end.
        var start = i
        var length = Self.utf8Length(buf, start, end)
        while length < 0, (try? refill(keeping: &start)) == true {
            length = Self.utf8Length(buf, start, end)
        }
        guard length > 0 else {
            return error(.invalidUTF8, "invalid UTF-8 byte \(Self.hexByte(buf[start]))", at: start)
        }
        let scalar = Self.decodeScalar(buf + start, length: length)
        return error(.syntax, "unexpected character \(Self.scalarName(scalar))\(context)", at: start)
    }

    // MARK: - Helpers

    /// `'x'` for printable ASCII, `U+XXXX` for anything else.
    static func describe(_ b: UInt8) -> String {
        if b >= 0x21 && b <= 0x7E { return "'\(Character(Unicode.Scalar(b)))'" }
        return scalarName(UInt32(b))
    }

    /// `U+000A`, `U+1F600`.
    static func scalarName(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `0xff`.
    static func hexByte(_ b: UInt8) -> String {
        let digits = String(b, radix: 16)
        return (digits.count < 2 ? "0x0" : "0x") + digits
    }

    /// The length of the well-formed UTF-8 sequence at `p[i]` (a byte ≥ 0x80): 2...4, 0 if it is
    /// ill-formed, -1 if the bytes before `e` are a valid but incomplete start.
    @inline(__always)
    static func utf8Length(_ p: UnsafeMutablePointer<UInt8>, _ i: Int, _ e: Int) -> Int {
        let lead = p[i]
        let length: Int
        // The second byte's range excludes overlongs, UTF-16 surrogates and values above U+10FFFF.
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xED: length = 3; high = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; low = 0x90
        case 0xF4: length = 4; high = 0x8F
        case 0xF1...0xF3: length = 4
        default: return 0
        }
        guard i + 1 < e else { return -1 }
        let second = p[i + 1]
        guard second >= low && second <= high else { return 0 }
        if length == 2 { return 2 }
        guard i + 2 < e else { return -1 }
        guard p[i + 2] & 0xC0 == 0x80 else { return 0 }
        if length == 3 { return 3 }
        guard i + 3 < e else { return -1 }
        guard p[i + 3] & 0xC0 == 0x80 else { return 0 }
        return 4
    }

    /// The scalar value of a well-formed multi-byte sequence.
    static func decodeScalar(_ p: UnsafeMutablePointer<UInt8>, length: Int) -> UInt32 {
        var value = UInt32(p[0]) & (0x7F >> UInt32(length))
        for k in 1..<length {
            value = value << 6 | UInt32(p[k] & 0x3F)
        }
        return value
    }
}
