import Foundation

/// What /proc tells of a running process's memory (Linux).
enum ServerMemory {
    /// The process's peak resident set in bytes (`VmHWM` in /proc/PID/status); nil where there is none.
    static func peakResidentBytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kib = Int(fields[1]) else { return nil }
            return kib * 1024
        }
        return nil
    }
}

/// An HTTP/1.1 request whose body is sent in chunks (`Transfer-Encoding: chunked`) as it is made,
/// like a client streaming from a pipe: no length is known in advance and nothing is held whole.
final class ChunkedUpload {
    private let client: RawClient

    /// Connects to 127.0.0.1:`port` and sends the head of `POST path` with `contentType`.
    init(port: Int, path: String, contentType: String) throws {
        client = try RawClient(port: port)
        try client.send(Array((
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: \(contentType)\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n").utf8))
    }

    /// Sends `bytes` as one chunk.
    func send(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        try client.send(Array("\(String(bytes.count, radix: 16))\r\n".utf8) + bytes + Array("\r\n".utf8))
    }

    /// Sends the last chunk and returns the response, read until the peer closes.
    func finish() throws -> String {
        try client.send(Array("0\r\n\r\n".utf8))
        return client.receive(until: "\u{0}")
    }
}
