import Testing

// @testable for the reader's count of bytes handled again.
@testable import Kura

/// A token's cost is linear in its length however its bytes arrive: a long string or number handed
/// over a few KiB at a time, as a request body arrives, is read with its bytes moved, copied or
/// scanned again no more than about its own length, as when it comes from a file in whole chunks.
@Suite struct LongTokenTests {
    /// The reader's chunk, small so the test is quick (the default is 1 MiB).
    static let chunk = 64 << 10
    /// The long token's length: four chunks.
    static let length = 4 * chunk
    /// What the supplier hands over at a time, as a network body arrives.
    static let piece = 1 << 10

    /// Reads the one document of `bytes`, handed over `piece` bytes at a time; returns it and the
    /// bytes the reader handled again.
    private static func read(_ bytes: [UInt8]) throws -> (DocumentNode, rehandled: Int) {
        var offset = 0
        let reader = JSONReader(file: "body", layout: .document, maxDepth: 512, chunkSize: chunk) { target in
            let count = min(target.count, piece, bytes.count - offset)
            bytes.withUnsafeBytes { source in
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
            }
            offset += count
            return count
        }
        let node = try #require(try reader.next())
        #expect(try reader.next() == nil)
        return (node, reader.rehandledBytes)
    }

    /// The value of the document's one member.
    private static func onlyValue(_ node: DocumentNode) -> DocumentValue? {
        guard case .object(let members) = node.value, members.count == 1 else { return nil }
        return members[0].value.value
    }

    @Test func aLongStringArrivingInSmallPiecesIsHandledAgainAtMostTwice() throws {
        let text = String(repeating: "abcdefgh", count: Self.length / 8)
        let bytes = Array(#"{"name": ""#.utf8) + Array(text.utf8) + Array(#""}"#.utf8)
        let (node, rehandled) = try Self.read(bytes)
        #expect(Self.onlyValue(node) == .string(text))
        #expect(rehandled <= 2 * Self.length, "\(rehandled) bytes handled again for a string of \(Self.length)")
    }

    @Test func aLongEscapedStringArrivingInSmallPiecesIsHandledAgainAtMostTwice() throws {
        let line = String(repeating: "x", count: 255)
        let text = String(repeating: line + "\n", count: Self.length / 256)
        let escaped = String(repeating: line + "\\n", count: Self.length / 256)
        let bytes = Array(#"{"name": ""#.utf8) + Array(escaped.utf8) + Array(#""}"#.utf8)
        let (node, rehandled) = try Self.read(bytes)
        #expect(Self.onlyValue(node) == .string(text))
        #expect(rehandled <= 2 * Self.length, "\(rehandled) bytes handled again for a string of \(Self.length)")
    }

    @Test func aLongNumberArrivingInSmallPiecesIsHandledAgainAtMostTwice() throws {
        let digits = "1" + String(repeating: "0", count: Self.length - 1)
        let bytes = Array(#"{"n": "#.utf8) + Array(digits.utf8) + Array("}".utf8)
        let (node, rehandled) = try Self.read(bytes)
        guard case .number(let number)? = Self.onlyValue(node) else {
            Issue.record("expected a number, found \(String(describing: Self.onlyValue(node)))")
            return
        }
        #expect(number.text == digits)
        #expect(number.isInteger && number.int64Value == nil && number.doubleValue == .infinity)
        #expect(rehandled <= 2 * Self.length, "\(rehandled) bytes handled again for a number of \(Self.length) digits")
    }
}
