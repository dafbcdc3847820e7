#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One document's text cut out of a YAML stream, with where it starts in the file.
struct YAMLSegment {
    /// The document's bytes, from its first line (a directive, `---` or content) to its last line.
    var bytes: [UInt8]
    /// The file line of the segment's first byte, from 1.
    var startLine: Int
    /// The file byte offset of the segment's first byte.
    var startOffset: Int
    /// The byte offset, within `bytes`, of the start of each line (the first is always 0).
    var lineStarts: [Int]
}

/// Cuts a YAML stream into documents at lines that begin with a document marker (`---` or `...`
/// followed by a space, a tab or the end of the line), reading the input in chunks so memory is
/// bounded by the largest document rather than the stream.
///
/// The YAML spec forbids such lines inside a document's content, so cutting there is exact and
/// each document can then be parsed on its own.
final class YAMLDocumentSplitter {
    private let source: JSONByteSource
    private let chunkSize: Int
    /// Bytes read but not yet handed out; `buffer[0]` is at file offset `bufferBase`.
    private var buffer: [UInt8] = []
    private var bufferBase = 0
    /// Where the next unexamined line starts in `buffer`.
    private var scan = 0
    /// Where the segment being collected starts in `buffer`.
    private var segmentStart = 0
    /// The file line of `scan`.
    private var line = 1
    private var segmentLine = 1
    private var lineStarts: [Int] = []
    private var atEnd = false
    private var startedReading = false
    /// Whether the current segment has a `---` line, a content line or a directive.
    private var hasStart = false
    private var hasContent = false
    private var hasDirective = false

    /// The file offset just past the last segment handed out.
    private(set) var consumed = 0

    /// Where each chunk is read before it joins `buffer`; allocated on first read.
    private var scratch: UnsafeMutableBufferPointer<UInt8>?

    init(source: JSONByteSource, chunkSize: Int) {
        self.source = source
        self.chunkSize = max(chunkSize, 1)
    }

    deinit {
        scratch?.deallocate()
    }

    /// The file name errors print.
    var file: String { source.name }

    /// Returns the next document's text, or nil at the end of input. Segments holding nothing
    /// but markers, comments and blank lines (empty documents) are skipped.
    func next() throws(KuraError) -> YAMLSegment? {
        if !startedReading {
            startedReading = true
            try skipByteOrderMark()
        }
        while true {
            guard let lineEnd = try nextLineEnd() else {
                // End of input: whatever was collected is the last document.
                if let segment = cut(at: scan) { return segment }
                return nil
            }
            let lineStart = scan
            switch classify(from: lineStart, to: lineEnd) {
            case .documentStart(let contentAfter):
                // A `---` after content begins the next document; directives and comments
                // seen since the previous document belong to the new one.
                var finished: YAMLSegment?
                if hasStart || hasContent { finished = cut(at: lineStart) }
                addLine(start: lineStart, end: lineEnd)
                hasStart = true
                if contentAfter { hasContent = true }
                if let finished { return finished }
            case .documentEnd(let contentAfter):
                addLine(start: lineStart, end: lineEnd)
                if contentAfter { hasContent = true }
                if let finished = cut(at: scan) { return finished }
            case .directive:
                addLine(start: lineStart, end: lineEnd)
                // After `---` a column-0 `%` is content that libyaml will reject.
                if hasStart { hasContent = true } else { hasDirective = true }
            case .blank:
                addLine(start: lineStart, end: lineEnd)
            case .content:
                addLine(start: lineStart, end: lineEnd)
                hasContent = true
            }
        }
    }

    private enum LineKind {
        case documentStart(contentAfter: Bool)
        case documentEnd(contentAfter: Bool)
        case directive
        case blank
        case content
    }

    /// Records a line as part of the current segment and moves past it.
    private func addLine(start: Int, end: Int) {
        lineStarts.append(start - segmentStart)
        scan = end
        line += 1
    }

    /// Ends the current segment just before `end` and starts a new, empty one there; returns the
    /// finished segment unless it held no document.
    private func cut(at end: Int) -> YAMLSegment? {
        // Directives without a `---` are kept so libyaml reports them; `---` with nothing after it
        // is an empty document and skipped.
        let keep = hasContent || (hasDirective && !hasStart)
        var segment: YAMLSegment?
        if keep && end > segmentStart {
            segment = YAMLSegment(
                bytes: Array(buffer[segmentStart..<end]), startLine: segmentLine,
                startOffset: bufferBase + segmentStart, lineStarts: lineStarts)
        }
        segmentStart = end
        consumed = bufferBase + end
        if end == buffer.count && buffer.capacity > 4 * chunkSize {
            // A large document was all of the buffer: let its bytes go now, not at the next read.
            bufferBase += end
            scan = 0
            segmentStart = 0
            buffer = []
        }
        segmentLine = line
        lineStarts.removeAll(keepingCapacity: true)
        hasStart = false
        hasContent = false
        hasDirective = false
        return segment
    }

    /// Looks at a line's first bytes to tell markers, directives and blank or comment lines apart.
    private func classify(from start: Int, to end: Int) -> LineKind {
        buffer.withUnsafeBufferPointer { b in
            let count = end - start
            func isBreak(_ i: Int) -> Bool {
                i >= end || b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D
            }
            func restHasContent(from i: Int) -> Bool {
                var j = i
                while j < end, b[j] == 0x20 || b[j] == 0x09 || b[j] == 0x0A || b[j] == 0x0D { j += 1 }
                return j < end && b[j] != 0x23
            }
            if count >= 3 {
                let c = b[start]
                if (c == 0x2D || c == 0x2E) && b[start + 1] == c && b[start + 2] == c && isBreak(start + 3) {
                    let after = restHasContent(from: start + 3)
                    return c == 0x2D ? .documentStart(contentAfter: after) : .documentEnd(contentAfter: after)
                }
            }
            if count > 0 && b[start] == 0x25 { return .directive }
            return restHasContent(from: start) ? .content : .blank
        }
    }

    /// Returns the end (just past the line feed) of the line starting at `scan`, reading more input
    /// as needed; the last line may lack a line feed. Nil when no bytes are left.
    private func nextLineEnd() throws(KuraError) -> Int? {
        var searched = 0
        while true {
            let searchFrom = scan + searched
            let found = buffer.withUnsafeBufferPointer { (b) -> Int? in
                guard let base = b.baseAddress, searchFrom < b.count else { return nil }
                guard let hit = memchr(base + searchFrom, 0x0A, b.count - searchFrom) else { return nil }
                return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit)) + 1
            }
            if let found { return found }
            searched = buffer.count - scan
            if atEnd { return scan < buffer.count ? buffer.count : nil }
            try readMore()
        }
    }

    /// Appends the next chunk of input, first dropping bytes already handed out.
    private func readMore() throws(KuraError) {
        if segmentStart > 0 && segmentStart >= buffer.count / 2 {
            buffer.removeSubrange(0..<segmentStart)
            bufferBase += segmentStart
            scan -= segmentStart
            segmentStart = 0
        }
        let chunk = scratch ?? UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
        scratch = chunk
        guard let base = chunk.baseAddress else { return }
        let got = try source.read(into: base, count: chunkSize)
        buffer.append(contentsOf: UnsafeBufferPointer(start: base, count: got))
        if got == 0 { atEnd = true }
    }

    /// Skips a UTF-8 byte order mark at the start of the input; it still counts in offsets.
    private func skipByteOrderMark() throws(KuraError) {
        while buffer.count < 3 && !atEnd { try readMore() }
        if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
            scan = 3
            segmentStart = 3
        }
    }
}
