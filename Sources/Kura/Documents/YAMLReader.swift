import Foundation
import Yams

/// Reads the documents of a YAML stream one at a time, with positions on every node and error.
///
/// The input is read in chunks and cut into documents at `---` / `...` lines, and each document
/// is parsed on its own with Yams, so memory is bounded by the largest document rather than the
/// stream. Line and column are positions in the whole file; `offset` is exact only on ASCII lines
/// (it counts the column as bytes from the line's start). An `.alias` node carries the position
/// of the node it refers to, as Yams does not report where the `*name` was written.
///
/// Nesting deeper than `maxDepth` is a `.depthLimit` error at the offending collection. libyaml
/// itself stops at about 1000 levels while parsing, before depth can be counted; such documents
/// get the same error, positioned where libyaml stopped (for flow collections, often the
/// outermost bracket).
///
/// Not thread-safe; use one reader from one task at a time.
public final class YAMLReader {
    /// The default number of bytes read from a file at a time.
    static let defaultChunkSize = 1 << 20
    /// libyaml refuses documents nested deeper than this many collections (an approximate count,
    /// as its own limit includes block indentation levels).
    static let libyamlNestingLimit = 1000

    private let splitter: YAMLDocumentSplitter
    private let maxDepth: Int
    private var failure: DocumentError?

    /// Opens the file at `path` for reading; nothing is read until `next()`.
    public convenience init(path: String, maxDepth: Int = 512) throws(DocumentError) {
        try self.init(path: path, maxDepth: maxDepth, chunkSize: Self.defaultChunkSize)
    }

    /// Reads YAML text already in memory; `file` is the name errors print.
    public convenience init(text: String, file: String = "<input>", maxDepth: Int = 512) {
        self.init(bytes: Array(text.utf8), file: file, maxDepth: maxDepth, chunkSize: Self.defaultChunkSize)
    }

    /// Reads YAML bytes already in memory, invalid UTF-8 included (an error where it is); `file`
    /// is the name errors print.
    public convenience init(bytes: [UInt8], file: String = "<input>", maxDepth: Int = 512) {
        self.init(bytes: bytes, file: file, maxDepth: maxDepth, chunkSize: Self.defaultChunkSize)
    }

    /// Reads YAML bytes as `supply` hands them over (see `JSONReader.init(file:layout:maxDepth:supply:)`);
    /// `file` is the name errors print.
    public init(file: String, maxDepth: Int = 512, supply: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        splitter = YAMLDocumentSplitter(source: JSONByteSource(name: file, supplier: supply), chunkSize: Self.defaultChunkSize)
        self.maxDepth = maxDepth
    }

    /// A file reader taking `chunkSize` bytes at a time (small sizes test chunk boundaries).
    init(path: String, maxDepth: Int, chunkSize: Int) throws(DocumentError) {
        splitter = YAMLDocumentSplitter(source: try JSONByteSource(path: path), chunkSize: chunkSize)
        self.maxDepth = maxDepth
    }

    /// An in-memory reader served `chunkSize` bytes at a time.
    init(bytes: [UInt8], file: String, maxDepth: Int, chunkSize: Int) {
        splitter = YAMLDocumentSplitter(source: JSONByteSource(bytes: bytes, name: file), chunkSize: chunkSize)
        self.maxDepth = maxDepth
    }

    /// The name errors print: the path, or the name given with the text.
    public var file: String { splitter.file }

    /// Bytes of input consumed so far (up to the end of the last document returned), for progress.
    public var bytesRead: Int { splitter.consumed }

    /// Returns the stream's next document, or nil at the end. After an error, throws it again.
    public func next() throws(DocumentError) -> DocumentNode? {
        if let failure { throw failure }
        do {
            while let segment = try splitter.next() {
                if let node = try parse(segment) { return node }
            }
            return nil
        } catch {
            failure = error
            throw error
        }
    }

    /// Parses one document's text; nil if it turns out to hold no node.
    private func parse(_ segment: YAMLSegment) throws(DocumentError) -> DocumentNode? {
        let positions = YAMLPositionMap(segment: segment)
        guard let text = String(validating: segment.bytes, as: UTF8.self) else {
            throw invalidUTF8(segment, positions)
        }
        // Only an alias can make a key expensive for Yams to hash; see YAMLKeyScan.
        if segment.bytes.contains(UInt8(ascii: "*")), let key = YAMLKeyScan.firstCollectionKey(in: segment.bytes) {
            let position = positions.position(line: key.line, column: key.column)
            throw DocumentError(.syntax, "YAML mapping keys must be scalars", file: file, position: position)
        }
        // Every parsed node and its anchors live as long as `parser`; keep it until conversion ends.
        let parser: Parser
        let root: Node?
        do {
            // An empty resolver: scalars are resolved by YAMLScalarResolver, without regexes.
            parser = try Parser(yaml: text, resolver: .basic, constructor: .default, encoding: .utf8)
            root = try parser.singleRoot()
        } catch {
            throw documentError(error, positions: positions)
        }
        guard let root else { return nil }
        var converter = YAMLNodeConverter(file: file, maxDepth: maxDepth, positions: positions)
        let node = try converter.convert(root)
        withExtendedLifetime(parser) {}
        return node
    }

    /// The position of the first byte that is not valid UTF-8.
    private func invalidUTF8(_ segment: YAMLSegment, _ positions: YAMLPositionMap) -> DocumentError {
        var index = 0
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = segment.bytes.makeIterator()
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): index += encoded.count
            case .error: break loop
            case .emptyInput: break loop
            }
        }
        let position = bytePosition(index, in: segment, positions)
        let byte = index < segment.bytes.count ? segment.bytes[index] : 0
        let hex = String(byte, radix: 16, uppercase: true)
        return DocumentError(.invalidUTF8, "invalid UTF-8 byte 0x\(hex)", file: file, position: position)
    }

    /// The file position of a byte index within a segment whose bytes before it are valid UTF-8.
    private func bytePosition(_ index: Int, in segment: YAMLSegment, _ positions: YAMLPositionMap) -> TextPosition {
        var lineIndex = 0
        while lineIndex + 1 < segment.lineStarts.count && segment.lineStarts[lineIndex + 1] <= index { lineIndex += 1 }
        let lineStart = segment.lineStarts.isEmpty ? 0 : segment.lineStarts[lineIndex]
        // Columns count Unicode scalars: every byte but continuation bytes starts one.
        let column = 1 + segment.bytes[lineStart..<index].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return TextPosition(line: segment.startLine + lineIndex, column: column, offset: segment.startOffset + index)
    }

    /// Turns a Yams error into a document error at its file position.
    private func documentError(_ error: any Error, positions: YAMLPositionMap) -> DocumentError {
        guard let yamlError = error as? YamlError else {
            return DocumentError(.syntax, "invalid YAML: \(error)", file: file, underlying: error)
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let position = positions.position(mark)
            if problem.hasPrefix("Maximum nesting level reached") {
                // libyaml stops deep documents before the converter can count their depth.
                let limit = min(maxDepth, Self.libyamlNestingLimit)
                return DocumentError(.depthLimit, "nesting deeper than \(limit) levels", file: file, position: position, underlying: error)
            }
            let contextText = context.map { " " + $0.text } ?? ""
            return DocumentError(.syntax, "invalid YAML: \(problem)\(contextText)", file: file, position: position, underlying: error)
        case .reader(let problem, let offset, _, let yaml):
            // Yams reports the offset in Characters; go back to bytes for the position.
            var position: TextPosition?
            if let offset, let index = yaml.index(yaml.startIndex, offsetBy: offset, limitedBy: yaml.endIndex) {
                let byteIndex = yaml.utf8.distance(from: yaml.utf8.startIndex, to: index)
                position = bytePosition(byteIndex, in: positions.segment, positions)
            }
            return DocumentError(.syntax, "invalid YAML: \(problem)", file: file, position: position, underlying: error)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.sorted().first ?? ""
            return DocumentError(
                .syntax, "invalid YAML: duplicated mapping key '\(key)'", file: file,
                position: positions.position(context.mark), underlying: error)
        case .memory:
            return DocumentError(.syntax, "invalid YAML: out of memory", file: file, underlying: error)
        default:
            return DocumentError(.syntax, "invalid YAML: \(yamlError)", file: file, underlying: error)
        }
    }
}
