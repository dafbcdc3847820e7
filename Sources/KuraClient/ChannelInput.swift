import Kura
import NIOCore

/// The download's pieces as the JSON reader takes them: into its buffer, a piece split across
/// reads when it does not fit.
final class ChannelInput {
    private let channel: ChunkChannel
    private var piece = ByteBuffer()

    init(channel: ChunkChannel) { self.channel = channel }

    /// A JSON Lines reader of what `channel` carries; `file` names it in errors.
    static func reader(of channel: ChunkChannel, file: String) -> JSONReader {
        let input = ChannelInput(channel: channel)
        return JSONReader(file: file, layout: .lines) { buffer in try input.fill(buffer) }
    }

    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while piece.readableBytes == 0 {
            guard let next = try channel.take() else { return 0 }
            piece = next
        }
        let count = min(buffer.count, piece.readableBytes)
        piece.withUnsafeReadableBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(count)))
        }
        piece.moveReaderIndex(forwardBy: count)
        return count
    }
}
