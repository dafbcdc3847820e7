import Yams

/// Turns a document-relative libyaml mark (as Yams reports it) into a position in the whole file.
///
/// libyaml starts a new line at CR, LF, CRLF, NEL, LS and PS, where positions count only line
/// feeds; and it reports the end of input one line past the last, even without a final line feed.
/// On a segment with only line feeds, line and column are taken as they are and the offset is the
/// line's start plus the column counted as bytes (exact on ASCII lines). A segment with other line
/// breaks gets a table of its characters so its positions are exact.
struct YAMLPositionMap {
    let segment: YAMLSegment
    private let otherBreaks: OtherBreaks?

    init(segment: YAMLSegment) {
        self.segment = segment
        otherBreaks = OtherBreaks(segment.bytes)
    }

    func position(line: Int, column: Int) -> TextPosition {
        if let otherBreaks { return otherBreaks.position(line: line, column: column, in: segment) }
        guard line - 1 < segment.lineStarts.count else { return endPosition() }
        let lineStart = segment.lineStarts.isEmpty ? 0 : segment.lineStarts[max(line - 1, 0)]
        return TextPosition(
            line: segment.startLine + max(line - 1, 0), column: max(column, 1),
            offset: segment.startOffset + lineStart + max(column - 1, 0))
    }

    func position(_ mark: Mark?) -> TextPosition {
        guard let mark else { return position(line: 1, column: 1) }
        return position(line: mark.line, column: mark.column)
    }

    /// The file position of a byte index within the segment, whose bytes before it are valid UTF-8.
    func bytePosition(_ index: Int) -> TextPosition {
        let index = min(max(index, 0), segment.bytes.count)
        var lineIndex = 0
        while lineIndex + 1 < segment.lineStarts.count && segment.lineStarts[lineIndex + 1] <= index { lineIndex += 1 }
        let lineStart = segment.lineStarts.isEmpty ? 0 : segment.lineStarts[lineIndex]
        // Columns count Unicode scalars: every byte but continuation bytes starts one.
        let column = 1 + segment.bytes[lineStart..<index].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return TextPosition(line: segment.startLine + lineIndex, column: column, offset: segment.startOffset + index)
    }

    /// Just past the segment's last byte.
    private func endPosition() -> TextPosition {
        let bytes = segment.bytes
        let end = segment.startOffset + bytes.count
        guard let lastStart = segment.lineStarts.last, bytes.last != 0x0A else {
            return TextPosition(line: segment.startLine + segment.lineStarts.count, column: 1, offset: end)
        }
        let scalars = bytes[lastStart...].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return TextPosition(line: segment.startLine + segment.lineStarts.count - 1, column: scalars + 1, offset: end)
    }

    /// Where libyaml's lines and the file's lines part ways: every character's byte offset, and
    /// the character index where each libyaml line and each file line starts.
    private struct OtherBreaks {
        var characterOffsets: [Int] = []
        var yamlLineStarts: [Int] = [0]
        var fileLineStarts: [Int] = [0]

        /// Nil when the only line breaks are line feeds.
        init?(_ bytes: [UInt8]) {
            let count = bytes.count
            var i = 0
            var found = false
            while i < count {
                if bytes[i] == 0x0D || (bytes[i] == 0xC2 && i + 1 < count && bytes[i + 1] == 0x85)
                    || (bytes[i] == 0xE2 && i + 2 < count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9))
                {
                    found = true
                    break
                }
                i += 1
            }
            guard found else { return nil }
            i = 0
            while i < count {
                let character = characterOffsets.count
                characterOffsets.append(i)
                let b = bytes[i]
                var width = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
                width = min(width, count - i)
                let isBreak =
                    b == 0x0A || (b == 0x0D && !(i + 1 < count && bytes[i + 1] == 0x0A))
                    || (b == 0xC2 && width == 2 && bytes[i + 1] == 0x85)
                    || (b == 0xE2 && width == 3 && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9))
                if isBreak { yamlLineStarts.append(character + 1) }
                if b == 0x0A { fileLineStarts.append(character + 1) }
                i += width
            }
        }

        func position(line: Int, column: Int, in segment: YAMLSegment) -> TextPosition {
            let lineIndex = min(max(line - 1, 0), yamlLineStarts.count - 1)
            let character = min(yamlLineStarts[lineIndex] + max(column - 1, 0), characterOffsets.count)
            // The last file line starting at or before the character.
            var low = 0
            var high = fileLineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if fileLineStarts[middle] <= character { low = middle } else { high = middle - 1 }
            }
            let byte = character < characterOffsets.count ? characterOffsets[character] : segment.bytes.count
            return TextPosition(
                line: segment.startLine + low, column: character - fileLineStarts[low] + 1, offset: segment.startOffset + byte)
        }
    }
}
