#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A raw HTTP client on a socket, for what curl will not do: stop halfway through a body, or send
/// the rest only after something else happened.
final class RawClient {
    struct Failure: Error {}

    private let fd: Int32

    /// Connects to 127.0.0.1:`port`; with `receiveBuffer`, the socket's receive buffer is set to
    /// that many bytes first, so that a client that does not read stops the server's sending soon.
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        #if os(Linux)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure() }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        // A server that never answers fails the test within a minute rather than hanging it.
        var patience = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure()
        }
    }

    deinit { close(fd) }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            // No SIGPIPE for a peer that closed: the write fails instead.
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure() }
            offset += written
        }
    }

    /// Reads at most `count` bytes, fewer when the peer sends less before closing.
    func receive(atMost count: Int) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, count - received.count)) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return received
    }

    /// Reads until the peer closes the connection or `timeout` seconds pass without a byte: whether
    /// it closed, how many bytes came, and the first of them as text.
    func drain(idleTimeout timeout: Double) -> (closed: Bool, bytes: Int, start: String) {
        var wait = timeval(tv_sec: Int(timeout), tv_usec: suseconds_t((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var total = 0
        var start: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return (n == 0 || errno == ECONNRESET, total, String(decoding: start, as: UTF8.self)) }
            if start.count < 512 { start += buffer[0..<min(n, 512 - start.count)] }
            total += n
        }
    }

    /// Reads until the text received contains `marker` or the peer closes; what was received.
    func receive(until marker: String) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

/// A client that sends a request head and part of its body, then drops the connection.
enum DroppingClient {
    /// Writes `head` then `partialBody` to 127.0.0.1:`port`, waits `pause` seconds, and closes.
    static func send(port: Int, head: String, partialBody: Data, pause: Double = 0.5) throws {
        let client = try RawClient(port: port)
        try client.send(Array(head.utf8) + Array(partialBody))
        Thread.sleep(forTimeInterval: pause)
    }
}
