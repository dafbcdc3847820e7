import Foundation
import Kura
import NIOCore

/// A file's bytes as an async sequence of chunks, read as the request body is sent: an import of
/// any size holds one chunk at a time.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let path: String
    /// The file's size when the sequence was made.
    let size: Int
    /// Hears the bytes read so far, after each chunk.
    let onRead: @Sendable (Int) -> Void

    static let chunkBytes = 256 << 10

    /// Throws when the file cannot be opened, before anything is sent.
    init(path: String, onRead: @escaping @Sendable (Int) -> Void) throws(KuraError) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), FileHandle(forReadingAtPath: path) != nil else {
            throw KuraError.document(.io, "cannot open file", file: path)
        }
        self.path = path
        size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        self.onRead = onRead
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(path: path, onRead: onRead)
    }

    struct Iterator: AsyncIteratorProtocol {
        let path: String
        let onRead: @Sendable (Int) -> Void
        private var handle: FileHandle?
        private var read = 0
        private var ended = false

        init(path: String, onRead: @escaping @Sendable (Int) -> Void) {
            self.path = path
            self.onRead = onRead
        }

        mutating func next() async throws -> ByteBuffer? {
            guard !ended else { return nil }
            if handle == nil {
                guard let opened = FileHandle(forReadingAtPath: path) else { throw KuraError.document(.io, "cannot open file", file: path) }
                handle = opened
            }
            let data: Data?
            do {
                data = try handle?.read(upToCount: FileChunks.chunkBytes)
            } catch {
                throw KuraError.document(.io, "cannot read file", file: path, underlying: error)
            }
            guard let data, !data.isEmpty else {
                ended = true
                try? handle?.close()
                return nil
            }
            read += data.count
            onRead(read)
            return ByteBuffer(bytes: data)
        }
    }
}
