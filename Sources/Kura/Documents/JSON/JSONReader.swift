import Foundation

/// How a JSON input is divided into documents.
public enum JSONLayout: Sendable, Hashable {
    /// `.array` if the first non-whitespace byte is '[', otherwise whitespace-separated values
    /// (a single document, concatenated documents or JSON Lines). An input of nothing but white
    /// space is an error, as it holds no JSON value: `[]` is no documents.
    case auto
    /// Exactly one JSON value; anything after it but whitespace is an error.
    case document
    /// A top-level JSON array whose elements are the documents, streamed one by one.
    case array
    /// JSON Lines: one value per line; blank lines are skipped.
    case lines
}

/// Reads JSON documents from a file or bytes, streaming: strict RFC 8259, positions on every
/// node and error, memory bounded by the largest document rather than the input.
///
/// Not thread-safe; use one reader from one task at a time.
public final class JSONReader {
    /// The default number of bytes read from a file at a time.
    static let defaultChunkSize = 1 << 20

    private enum State {
        case start
        case document
        case sequence
        case lines
        case arrayStart
        case arrayNext
        case finished
        case failed(KuraError)
    }

    private var parser: JSONParser
    private let layout: JSONLayout
    private var state = State.start

    /// Opens the file at `path` for reading; nothing is read until `next()`.
    public convenience init(path: String, layout: JSONLayout = .auto, maxDepth: Int = 512) throws(KuraError) {
        try self.init(path: path, layout: layout, maxDepth: maxDepth, chunkSize: Self.defaultChunkSize)
    }

    /// Reads bytes already in memory; `file` is the name errors print.
    public convenience init(bytes: [UInt8], file: String = "<input>", layout: JSONLayout = .auto, maxDepth: Int = 512) {
        self.init(bytes: bytes, file: file, layout: layout, maxDepth: maxDepth, chunkSize: Self.defaultChunkSize)
    }

    /// Reads bytes already in memory; `file` is the name errors print.
    public convenience init(data: Data, file: String = "<input>", layout: JSONLayout = .auto, maxDepth: Int = 512) {
        self.init(bytes: [UInt8](data), file: file, layout: layout, maxDepth: maxDepth)
    }

    /// Reads bytes as `supply` hands them over, so input that arrives over time (a request body)
    /// is parsed as it comes and never held whole; `file` is the name errors print.
    ///
    /// `supply` fills the buffer it is given with up to its count of bytes and returns how many,
    /// blocking until some arrive; 0 means the input ended. An error it throws ends reading with a
    /// `KuraError` of code `.document(.io)`.
    public convenience init(
        file: String, layout: JSONLayout = .auto, maxDepth: Int = 512, supply: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) {
        let source = JSONByteSource(name: file, supplier: supply)
        self.init(source: source, layout: layout, maxDepth: maxDepth, chunkSize: Self.defaultChunkSize)
    }

    /// A reader of supplied bytes taking `chunkSize` bytes at a time (small sizes test long tokens).
    convenience init(
        file: String, layout: JSONLayout, maxDepth: Int, chunkSize: Int, supply: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) {
        self.init(source: JSONByteSource(name: file, supplier: supply), layout: layout, maxDepth: maxDepth, chunkSize: chunkSize)
    }

    private init(source: JSONByteSource, layout: JSONLayout, maxDepth: Int, chunkSize: Int) {
        parser = JSONParser(scanner: JSONScanner(source: source, chunkSize: chunkSize), maxDepth: maxDepth)
        self.layout = layout
    }

    /// A file reader taking `chunkSize` bytes at a time (small sizes test chunk boundaries).
    init(path: String, layout: JSONLayout, maxDepth: Int, chunkSize: Int) throws(KuraError) {
        let source = try JSONByteSource(path: path)
        parser = JSONParser(scanner: JSONScanner(source: source, chunkSize: chunkSize), maxDepth: maxDepth)
        self.layout = layout
    }

    /// An in-memory reader served `chunkSize` bytes at a time (small sizes test chunk boundaries).
    init(bytes: [UInt8], file: String, layout: JSONLayout, maxDepth: Int, chunkSize: Int) {
        let source = JSONByteSource(bytes: bytes, name: file)
        parser = JSONParser(scanner: JSONScanner(source: source, chunkSize: chunkSize), maxDepth: maxDepth)
        self.layout = layout
    }

    /// The name errors print: the path, or the name given with the bytes.
    public var file: String { parser.scanner.file }

    /// Bytes of input consumed so far (up to the end of the last document returned), for progress.
    public var bytesRead: Int { parser.scanner.offset }

    /// Bytes of input the scanner has handled more than once so far (see `JSONScanner.rehandledBytes`).
    var rehandledBytes: Int { parser.scanner.rehandledBytes }

    /// Returns the next document, or nil at the end of input. After an error, throws it again.
    public func next() throws(KuraError) -> DocumentNode? {
        do {
            return try step()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private func step() throws(KuraError) -> DocumentNode? {
        switch state {
        case .failed(let error):
            throw error
        case .finished:
            return nil
        case .start:
            try parser.scanner.skipByteOrderMark()
            switch layout {
            case .document: state = .document
            case .array: state = .arrayStart
            case .lines: state = .lines
            case .auto:
                let start = parser.scanner.position(at: parser.scanner.pos)
                guard let b = try parser.scanner.skipWhitespace() else {
                    // Not JSON; an array is the way to write no documents.
                    let what = parser.scanner.offset == start.offset ? "empty input" : "only white space"
                    throw KuraError.document(
                        .syntax, "\(what), expected a JSON value ([] holds no documents)", file: file, position: start)
                }
                // A comma before any document is no comma between documents.
                if b == 0x2C { throw parser.scanner.unexpected(at: parser.scanner.pos, ", expected a value") }
                state = b == 0x5B ? .arrayStart : .sequence
            }
            return try step()
        case .document:
            guard try parser.scanner.skipWhitespace() != nil else {
                throw parser.scanner.endError(", expected a value")
            }
            let node = try parser.parseValue(outerDepth: 0)
            try expectEndOfInput()
            state = .finished
            return node
        case .sequence:
            guard let b = try parser.scanner.skipWhitespace() else {
                state = .finished
                return nil
            }
            if b == 0x2C { try parser.refuseCommaAfterDocument(inLines: false) }
            return try parser.parseValue(outerDepth: 0)
        case .lines:
            guard try parser.scanner.skipWhitespace() != nil else {
                state = .finished
                return nil
            }
            parser.scanner.forbidNewlines = true
            let node = try parser.parseValue(outerDepth: 0)
            parser.scanner.forbidNewlines = false
            if let b = try parser.scanner.skipSpacesOnLine(), b != 0x0A {
                if b == 0x2C { try parser.refuseCommaAfterDocument(inLines: true) }
                throw parser.scanner.unexpected(at: parser.scanner.pos, " after the value, expected a new line")
            }
            return node
        case .arrayStart:
            guard let b = try parser.scanner.skipWhitespace() else {
                throw parser.scanner.endError(", expected '['")
            }
            guard b == 0x5B else {
                throw parser.scanner.unexpected(at: parser.scanner.pos, ", expected '['")
            }
            if parser.maxDepth < 1 {
                throw parser.scanner.error(.depthLimit, "nesting deeper than \(Counted(parser.maxDepth, "level"))", at: parser.scanner.pos)
            }
            parser.scanner.pos += 1
            guard let c = try parser.scanner.skipWhitespace() else { throw parser.scanner.endError(" in array") }
            if c == 0x5D {
                parser.scanner.pos += 1
                try expectEndOfInput()
                state = .finished
                return nil
            }
            state = .arrayNext
            return try parser.parseValue(outerDepth: 1)
        case .arrayNext:
            guard let c = try parser.scanner.skipWhitespace() else { throw parser.scanner.endError(" in array") }
            if c == 0x2C {
                parser.noteComma()
                return try parser.parseValue(outerDepth: 1)
            }
            guard c == 0x5D else {
                throw parser.scanner.unexpected(at: parser.scanner.pos, " in array, expected ',' or ']'")
            }
            parser.scanner.pos += 1
            try expectEndOfInput()
            state = .finished
            return nil
        }
    }

    /// Only whitespace may follow the last document.
    private func expectEndOfInput() throws(KuraError) {
        if let b = try parser.scanner.skipWhitespace() {
            if b == 0x2C { try parser.refuseCommaAfterDocument(inLines: false) }
            throw parser.scanner.error(.syntax, "trailing characters after the document", at: parser.scanner.pos)
        }
    }
}
