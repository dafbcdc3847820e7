import Foundation

/// Where the next page of a sorted query starts: the sort values and the object id of the last
/// object of a page (a keyset cursor), so a page follows its predecessor exactly whatever was
/// inserted or deleted meanwhile. Get one from `ExportSummary.next`; pass it as `ExportOptions.after`.
///
/// `token` is opaque text that is safe in a URL; a cursor read back from it pages only the sort
/// order it was made for.
public struct QueryCursor: Sendable, Equatable {
    /// The sort order the values belong to (`ObjectQuery.signature`).
    let signature: String
    /// The last object's value of each sort key, as the ORDER BY terms compute them.
    let values: [StoredCell]
    /// The last object's id, which breaks ties.
    let id: Int64

    init(signature: String, values: [StoredCell], id: Int64) {
        self.signature = signature
        self.values = values
        self.id = id
    }

    /// The cursor as opaque text made of URL-safe characters.
    public var token: String {
        var bytes: [UInt8] = [1]
        Self.append(Array(signature.utf8), to: &bytes)
        Self.append(UInt64(bitPattern: id), to: &bytes)
        for value in values {
            switch value {
            case .null: bytes.append(0)
            case .integer(let number): bytes.append(1); Self.append(UInt64(bitPattern: number), to: &bytes)
            case .real(let number): bytes.append(2); Self.append(number.bitPattern, to: &bytes)
            case .text(let text): bytes.append(3); Self.append(Array(text.utf8), to: &bytes)
            case .blob(let data): bytes.append(4); Self.append(Array(data), to: &bytes)
            }
        }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Reads a cursor from its `token`; throws `KuraError.query(.invalidCursor)` for text no cursor wrote.
    public init(token: String) throws(KuraError) {
        let invalid = KuraError.query(.invalidCursor, "'\(token)' is not a cursor of this query: start again without it")
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { throw invalid }
        var reader = Reader(bytes: Array(data))
        guard reader.byte() == 1, let signature = reader.chunk().flatMap({ String(validating: $0, as: UTF8.self) }),
            let id = reader.word()
        else { throw invalid }
        var values: [StoredCell] = []
        while !reader.isAtEnd {
            switch reader.byte() {
            case 0: values.append(.null)
            case 1: guard let word = reader.word() else { throw invalid }; values.append(.integer(Int64(bitPattern: word)))
            case 2: guard let word = reader.word() else { throw invalid }; values.append(.real(Double(bitPattern: word)))
            case 3:
                guard let text = reader.chunk().flatMap({ String(validating: $0, as: UTF8.self) }) else { throw invalid }
                values.append(.text(text))
            case 4: guard let chunk = reader.chunk() else { throw invalid }; values.append(.blob(Data(chunk)))
            default: throw invalid
            }
        }
        self.init(signature: signature, values: values, id: Int64(bitPattern: id))
    }

    private static func append(_ word: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    private static func append(_ chunk: [UInt8], to bytes: inout [UInt8]) {
        append(UInt64(chunk.count), to: &bytes)
        bytes += chunk
    }

    /// Reads a token's bytes, answering `nil` past their end.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset >= bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            offset += 1
            return bytes[offset - 1]
        }

        mutating func word() -> UInt64? {
            guard bytes.count - offset >= 8 else { return nil }
            var word: UInt64 = 0
            for byte in bytes[offset..<offset + 8] { word = word << 8 | UInt64(byte) }
            offset += 8
            return word
        }

        mutating func chunk() -> [UInt8]? {
            guard let length = word(), length <= UInt64(bytes.count - offset) else { return nil }
            let count = Int(length)
            offset += count
            return Array(bytes[offset - count..<offset])
        }
    }
}
