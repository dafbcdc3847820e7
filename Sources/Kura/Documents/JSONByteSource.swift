#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where the reader's bytes come from: an open file read in chunks, or bytes already in memory.
final class JSONByteSource {
    /// The name errors print.
    let name: String
    private let fd: Int32
    private let bytes: [UInt8]
    private var offset = 0

    /// Serves in-memory bytes, as if they were a file.
    init(bytes: [UInt8], name: String) {
        self.name = name
        self.bytes = bytes
        self.fd = -1
    }

    /// Opens a file for reading; nothing is read yet.
    init(path: String) throws(DocumentError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw Self.ioError("cannot open file", file: path) }
        self.name = path
        self.bytes = []
        self.fd = fd
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Reads up to `count` bytes into `target`; returns 0 only at the end of input.
    func read(into target: UnsafeMutablePointer<UInt8>, count: Int) throws(DocumentError) -> Int {
        guard count > 0 else { return 0 }
        if fd < 0 {
            let n = min(count, bytes.count - offset)
            guard n > 0 else { return 0 }
            bytes.withUnsafeBufferPointer { source in
                if let start = source.baseAddress {
                    target.update(from: start + offset, count: n)
                }
            }
            offset += n
            return n
        }
        while true {
            #if canImport(Darwin)
            let n = Darwin.read(fd, target, count)
            #elseif canImport(Musl)
            let n = Musl.read(fd, target, count)
            #else
            let n = Glibc.read(fd, target, count)
            #endif
            if n >= 0 { return n }
            // A signal may interrupt the read before anything arrives; that is not an error.
            if errno == EINTR { continue }
            throw Self.ioError("cannot read file", file: name)
        }
    }

    /// An I/O error describing the current `errno`.
    private static func ioError(_ what: String, file: String) -> DocumentError {
        let code = errno
        let reason = String(cString: strerror(code))
        let underlying = POSIXErrorCode(rawValue: code).map { POSIXError($0) }
        return DocumentError(.io, "\(what): \(reason)", file: file, underlying: underlying)
    }
}
