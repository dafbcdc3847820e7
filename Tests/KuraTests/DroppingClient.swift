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

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        #if os(Linux)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure() }
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
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure() }
            offset += written
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
