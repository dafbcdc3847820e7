#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where written documents go: a file, standard output, memory or a chunk handler, through one large buffer so
/// that writing costs one system call per 64 KiB rather than one per value.
///
/// Call `close()` (or `DocumentWriter.finish()`) at the end: bytes still buffered when the output
/// is released are lost. Not thread-safe.
public final class DocumentOutput {
    /// How many bytes are collected before they are written out.
    static let bufferCapacity = 64 * 1024

    private enum Sink {
        case descriptor(Int32, owned: Bool)
        case memory
        case chunks(([UInt8]) throws -> Void)
    }

    /// The name errors print: the file's path, `<stdout>` or `<memory>`.
    public let name: String
    private let sink: Sink
    /// Bytes not yet written out; for a memory output, everything written.
    private var pending: [UInt8] = []
    private var flushedCount = 0
    /// Whether `close()` was called.
    private(set) var isClosed = false

    /// Creates the file at `path`, or truncates it if it exists.
    public init(path: String) throws(KuraError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw Self.ioError("cannot create file", file: path) }
        name = path
        sink = .descriptor(fd, owned: true)
        pending.reserveCapacity(Self.bufferCapacity)
    }

    /// Writes to the open file descriptor `descriptor`, which `close()` closes; `name` is the path
    /// errors print.
    public init(descriptor: Int32, name: String) {
        self.name = name
        sink = .descriptor(descriptor, owned: true)
        pending.reserveCapacity(Self.bufferCapacity)
    }

    /// An output that keeps every byte in memory, readable from `bytes`.
    public init() {
        name = "<memory>"
        sink = .memory
    }

    /// An output that hands every full buffer (and the rest on `flush()` or `close()`) to `receive`,
    /// so documents can be streamed to a network peer without being held whole.
    ///
    /// An error thrown by `receive` (a peer gone, say) stops the writer with a `KuraError` of
    /// code `.document(.outputClosed)` whose `underlying` is that error.
    public init(name: String, receive: @escaping ([UInt8]) throws -> Void) {
        self.name = name
        sink = .chunks(receive)
        pending.reserveCapacity(Self.bufferCapacity)
    }

    private init(standardOutputNamed name: String) {
        self.name = name
        sink = .descriptor(STDOUT_FILENO, owned: false)
        pending.reserveCapacity(Self.bufferCapacity)
    }

    /// An output to the process's standard output, which `close()` flushes but leaves open.
    public static func standardOutput() -> DocumentOutput {
        DocumentOutput(standardOutputNamed: "<stdout>")
    }

    deinit {
        if case .descriptor(let fd, owned: true) = sink, !isClosed { _ = systemClose(fd) }
    }

    /// Everything written so far, for a memory output; empty for a file or standard output.
    public var bytes: [UInt8] {
        if case .memory = sink { return pending }
        return []
    }

    /// How many bytes have been written so far, buffered ones included (for progress reports).
    public var byteCount: Int { flushedCount + pending.count }

    /// Exchanges the buffer with `other`, so a writer can append to it in place and hand it back.
    func exchangeBuffer(_ other: inout [UInt8]) {
        swap(&pending, &other)
    }

    /// Writes the buffer out if it holds at least `bufferCapacity` bytes.
    func flushIfFull() throws(KuraError) {
        if pending.count >= Self.bufferCapacity { try flush() }
    }

    /// Appends bytes written elsewhere (an export a server sent, say) as they are.
    public func append(_ bytes: some Sequence<UInt8>) throws(KuraError) {
        pending.append(contentsOf: bytes)
        try flushIfFull()
    }

    /// Writes every buffered byte out (a memory output keeps them).
    public func flush() throws(KuraError) {
        if case .chunks(let receive) = sink, !pending.isEmpty {
            try hand(to: receive)
            return
        }
        guard case .descriptor(let fd, _) = sink, !pending.isEmpty else { return }
        if isClosed { throw KuraError.document(.outputClosed, "the output is already closed", file: name) }
        var errorCode: Int32 = 0
        pending.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(fd, base + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    // A signal arrived before anything was written; try again.
                    continue
                } else {
                    errorCode = written < 0 ? errno : EIO
                    return
                }
            }
        }
        if errorCode != 0 { throw Self.ioError("cannot write file", file: name, code: errorCode) }
        flushedCount += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    private func hand(to receive: ([UInt8]) throws -> Void) throws(KuraError) {
        if isClosed { throw KuraError.document(.outputClosed, "the output is already closed", file: name) }
        do {
            try receive(pending)
        } catch {
            throw KuraError.document(.outputClosed, "the receiver stopped taking output", file: name, underlying: error)
        }
        flushedCount += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    /// Flushes, then closes the file (standard output stays open). Closing twice does nothing.
    public func close() throws(KuraError) {
        guard !isClosed else { return }
        try flush()
        isClosed = true
        if case .descriptor(let fd, owned: true) = sink, systemClose(fd) != 0 {
            // Some file systems report a failed write only when the file is closed.
            throw Self.ioError("cannot close file", file: name)
        }
    }

    /// An I/O error describing `code` (the current `errno` by default).
    private static func ioError(_ what: String, file: String, code: Int32 = errno) -> KuraError {
        let reason = String(cString: strerror(code))
        let underlying = POSIXErrorCode(rawValue: code).map { POSIXError($0) }
        return KuraError.document(.io, "\(what): \(reason)", file: file, underlying: underlying)
    }
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(fd, buffer, count)
    #elseif canImport(Musl)
    Musl.write(fd, buffer, count)
    #else
    Glibc.write(fd, buffer, count)
    #endif
}

private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
    Darwin.close(fd)
    #elseif canImport(Musl)
    Musl.close(fd)
    #else
    Glibc.close(fd)
    #endif
}
