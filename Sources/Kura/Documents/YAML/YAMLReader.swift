import Foundation
import Yams

/// Reads the documents of a YAML stream one at a time, with positions on every node and error.
///
/// The input is read in chunks and cut into documents at `---` / `...` lines, and each document
/// is parsed on its own with libyaml (as Yams builds it), its tree built from the parser's events
/// (`YAMLTreeBuilder`), so memory is bounded by the largest document rather than the stream, and a
/// document costs its tree alone. Line and column are positions in the whole file; `offset` is
/// exact only on ASCII lines (it counts the column as bytes from the line's start). An `.alias`
/// node carries its own position, the `*name`'s.
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
    private var failure: KuraError?
    /// The items of a top-level sequence still to be returned, each a document of its own.
    private var sequenceItems: [DocumentNode] = []
    /// The value errors of those items, each the first of its item's, in item order.
    private var itemErrors: [YAMLTreeBuilder.ValueError] = []
    private var nextItem = 0
    private var nextError = 0
    /// Whether the document last returned is an item after the first of a top-level sequence: it
    /// may alias anchors of the items before it, which are one YAML document with it.
    private(set) var continuesSequence = false

    /// Opens the file at `path` for reading; nothing is read until `next()`.
    public convenience init(path: String, maxDepth: Int = 512) throws(KuraError) {
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
    init(path: String, maxDepth: Int, chunkSize: Int) throws(KuraError) {
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
    ///
    /// A YAML document whose root is a sequence is a list of documents, as a JSON file's top-level
    /// array is (docs/documents.md): each item is a document, and an item that is itself a sequence is one
    /// positional document.
    ///
    /// A document that reads as YAML but holds a value it cannot (a timestamp finer than a
    /// millisecond, a scalar that does not fit its tag…) is thrown as an error whose `document` is
    /// set; reading goes on with the next document.
    public func next() throws(KuraError) -> DocumentNode? {
        if let failure { throw failure }
        do throws(KuraError) {
            while true {
                if nextItem < sequenceItems.count {
                    let item = nextItem
                    nextItem += 1
                    continuesSequence = item > 0
                    if nextError < itemErrors.count, itemErrors[nextError].item == item {
                        nextError += 1
                        throw Self.documentError(itemErrors[nextError - 1].error, sequenceItems[item])
                    }
                    return sequenceItems[item]
                }
                sequenceItems = []
                itemErrors = []
                nextItem = 0
                nextError = 0
                continuesSequence = false
                guard let segment = try splitter.next() else { return nil }
                guard let (node, errors) = try parse(segment) else { continue }
                var root = node
                if case .anchored(_, let inner) = node.value { root = inner }  // nothing can link to a list
                // An error outside every item (a tag on the sequence itself) is the whole document's.
                guard case .array(let items) = root.value, !errors.contains(where: { $0.item < 0 }) else {
                    if let first = errors.first { throw Self.documentError(first.error, node) }
                    return node
                }
                sequenceItems = items
                itemErrors = errors
            }
        } catch {
            if error.document == nil { failure = error }
            throw error
        }
    }

    /// `error`, as the error of `document` alone.
    private static func documentError(_ error: KuraError, _ document: DocumentNode) -> KuraError {
        var error = error
        error.document = document
        return error
    }

    /// Parses one document's text, with the value errors in it; nil if it turns out to hold no node.
    private func parse(_ segment: YAMLSegment) throws(KuraError) -> (DocumentNode, [YAMLTreeBuilder.ValueError])? {
        let positions = YAMLPositionMap(segment: segment)
        // Checked whole before parsing, so invalid UTF-8 anywhere is reported as such; the text
        // made to check it is dropped at once, as libyaml reads the bytes.
        guard String(validating: segment.bytes, as: UTF8.self) != nil else {
            throw invalidUTF8(segment, positions)
        }
        var builder = YAMLTreeBuilder(file: file, maxDepth: maxDepth, positions: positions)
        guard let node = try builder.build(segment.bytes) else { return nil }
        return (node, builder.valueErrors)
    }

    /// The position of the first byte that is not valid UTF-8.
    private func invalidUTF8(_ segment: YAMLSegment, _ positions: YAMLPositionMap) -> KuraError {
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
        let position = positions.bytePosition(index)
        let byte = index < segment.bytes.count ? segment.bytes[index] : 0
        let hex = String(byte, radix: 16, uppercase: true)
        return KuraError.document(.invalidUTF8, "invalid UTF-8 byte 0x\(hex)", file: file, position: position)
    }
}
