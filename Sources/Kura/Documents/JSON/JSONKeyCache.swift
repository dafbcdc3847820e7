/// Remembers recently seen object keys so a key repeated in every record is decoded once and
/// its `String` storage shared by all nodes, instead of allocated per occurrence.
struct JSONKeyCache {
    /// Keys longer than this are not cached; they are rare and comparing them costs more.
    static let maxLength = 32

    private typealias Words = (UInt64, UInt64, UInt64, UInt64)

    private struct Entry {
        var words: Words
        var length: Int
        var string: String
    }

    /// Direct-mapped by a hash of the key's bytes; a collision simply replaces the entry.
    private var entries = [Entry](repeating: Entry(words: (0, 0, 0, 0), length: -1, string: ""), count: 256)

    /// The string for `count` valid UTF-8 bytes at `bytes`, from the cache when it was seen before.
    /// `maxLength` bytes must be readable at `bytes`; those after `count` are ignored.
    mutating func string(_ bytes: UnsafePointer<UInt8>, count: Int) -> String {
        guard count <= Self.maxLength else {
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
        // Whole-word loads, masked to the key's length: comparing two keys is four integer comparisons.
        let raw = UnsafeRawPointer(bytes)
        let words: Words = (
            Self.word(raw, 0, count), Self.word(raw, 1, count), Self.word(raw, 2, count), Self.word(raw, 3, count)
        )
        var hash = words.0 ^ (words.1 &* 0xFF51_AFD7_ED55_8CCD) ^ (words.2 &* 0xC4CE_B9FE_1A85_EC53)
        hash ^= (words.3 &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(count)
        hash = (hash ^ (hash >> 29)) &* 0x9E37_79B9_7F4A_7C15
        let slot = Int(truncatingIfNeeded: hash >> 56)
        if entries[slot].length == count && entries[slot].words == words {
            return entries[slot].string
        }
        let string = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        entries[slot] = Entry(words: words, length: count, string: string)
        return string
    }

    /// Little-endian word `index` of the key, with bytes past `count` zeroed.
    @inline(__always)
    private static func word(_ raw: UnsafeRawPointer, _ index: Int, _ count: Int) -> UInt64 {
        let valid = count - index * 8
        if valid <= 0 { return 0 }
        let value = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
        return valid >= 8 ? value : value & ((1 << UInt64(valid * 8)) - 1)
    }
}
