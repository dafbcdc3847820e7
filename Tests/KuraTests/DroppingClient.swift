#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A client that sends a request head and part of its body, then drops the connection.
enum DroppingClient {
    struct Failure: Error {}

    /// Connects to 127.0.0.1:`port`, writes `head` then `partialBody`, waits `pause` seconds, and closes.
    static func send(port: Int, head: String, partialBody: Data, pause: Double = 0.5) throws {
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure() }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure() }
        for bytes in [Array(head.utf8), Array(partialBody)] {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard written > 0 else { throw Failure() }
                offset += written
            }
        }
        Thread.sleep(forTimeInterval: pause)
    }
}
