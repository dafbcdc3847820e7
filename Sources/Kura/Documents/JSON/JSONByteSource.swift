#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where the reader's bytes come from: an open file read in chunks, bytes already in memory, or a
/// supplier that hands them over as they arrive (a network body, say).
final class JSONByteSource {
    /// The name errors print.
    let name: String
    private let fd: Int32
    private let bytes: [UInt8]
    /// How many bytes were read, from the file or from `bytes`.
    private var offset = 0
    /// How much of the file the page cache was told to drop (see `releaseReadPages`).
    private(set) var releasedUpTo = 0
    /// How many bytes read are released at a time.
    private let releaseStep: Int
    /// Fills a buffer with the next bytes, returning how many (0 at the end); `nil` unless streamed.
    private let supplier: ((UnsafeMutableRawBufferPointer) throws -> Int)?

    /// The release step of files opened for documents: a call per 8 MiB read.
    static let defaultReleaseStep = 8 << 20
    /// Releases end on multiples of this: the kernel keeps a cached folio that a range only
    /// partly covers, and a file's folios are up to 2 MiB (x86-64 and arm64 with 4 KiB pages).
    /// Measured with a file just written: released by the MiB, none of its pages left the cache.
    static let releaseAlignment = 2 << 20

    /// Serves in-memory bytes, as if they were a file.
    init(bytes: [UInt8], name: String) {
        self.name = name
        self.bytes = bytes
        self.fd = -1
        self.releaseStep = Int.max
        self.supplier = nil
    }

    /// Takes bytes from `supplier` as they arrive; an error it throws stops the reader as an I/O error.
    init(name: String, supplier: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        self.name = name
        self.bytes = []
        self.fd = -1
        self.releaseStep = Int.max
        self.supplier = supplier
    }

    /// Opens a file for reading; nothing is read yet. Every `releaseStep` bytes read, the pages
    /// read are released from the page cache.
    init(path: String, releaseStep: Int = JSONByteSource.defaultReleaseStep) throws(KuraError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw Self.ioError("cannot open file", file: path) }
        self.name = path
        self.bytes = []
        self.fd = fd
        self.releaseStep = max(1, releaseStep)
        self.supplier = nil
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Reads up to `count` bytes into `target`; returns 0 only at the end of input.
    func read(into target: UnsafeMutablePointer<UInt8>, count: Int) throws(KuraError) -> Int {
        guard count > 0 else { return 0 }
        if let supplier { return try supplied(by: supplier, into: target, count: count) }
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
            if n >= 0 {
                offset += n
                if offset - releasedUpTo >= releaseStep { releaseReadPages() }
                return n
            }
            // A signal may interrupt the read before anything arrives; that is not an error.
            if errno == EINTR { continue }
            throw Self.ioError("cannot read file", file: name)
        }
    }

    private func supplied(
        by supplier: (UnsafeMutableRawBufferPointer) throws -> Int, into target: UnsafeMutablePointer<UInt8>, count: Int
    ) throws(KuraError) -> Int {
        do {
            let n = try supplier(UnsafeMutableRawBufferPointer(start: target, count: count))
            guard (0...count).contains(n) else {
                throw KuraError.document(.io, "the input's supplier returned \(n) bytes for a buffer of \(count)", file: name)
            }
            offset += n
            return n
        } catch let error as KuraError where error.code.domain == .document {
            throw error
        } catch {
            throw KuraError.document(.io, "cannot read input: \(error)", file: name, underlying: error)
        }
    }

    /// Tells the kernel that the pages read so far will not be read again, so it may drop them.
    ///
    /// A document file is read once, front to back. Kept, a large input's pages stay in the page
    /// cache beside the pages the import writes; released, the memory of the few MiB read last is
    /// used again for the next, which cuts the system time of a large import and keeps its time
    /// growing in line with its size (`Benchmarks/growth.sh` shows it). A hint only: a pipe, or a
    /// system without `posix_fadvise`, ignores it, and nothing read is lost.
    private func releaseReadPages() {
        let end = offset / Self.releaseAlignment * Self.releaseAlignment
        guard end > releasedUpTo else { return }
        #if os(Linux)
        _ = posix_fadvise(fd, off_t(releasedUpTo), off_t(end - releasedUpTo), POSIX_FADV_DONTNEED)
        #endif
        releasedUpTo = end
    }

    /// An I/O error describing the current `errno`.
    private static func ioError(_ what: String, file: String) -> KuraError {
        let code = errno
        let reason = String(cString: strerror(code))
        let underlying = POSIXErrorCode(rawValue: code).map { POSIXError($0) }
        return KuraError.document(.io, "\(what): \(reason)", file: file, underlying: underlying)
    }
}
